import { Repositories } from '../shared/unit-of-work.ports';
import { BrandSettings, defaultBrandSettings } from './settings.entities';

/** The brand's settings, or the defaults when it never saved any. */
export async function loadSettings(repos: Pick<Repositories, 'settings'>, brandId: number): Promise<BrandSettings> {
  return (await repos.settings.find(brandId)) ?? defaultBrandSettings(brandId);
}
