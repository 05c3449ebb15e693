import { Repositories } from '../shared/unit-of-work.port';
import { BrandSettings, defaultBrandSettings } from './settings.entities';

/** The brand's settings, or the defaults when it never saved any. */
export async function loadSettings(repos: Repositories, brandId: number): Promise<BrandSettings> {
  return (await repos.settings.find(brandId)) ?? defaultBrandSettings(brandId);
}
