import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { loadSettings } from './load-settings';
import { BrandSettings } from './settings.entities';

/** `GET /v10/settings`: the brand's settings, or the defaults when it never changed any. */
export async function getBrandSettings(
  deps: { uow: UnitOfWork<Pick<Repositories, 'settings'>> },
  input: { brandId: number },
): Promise<BrandSettings> {
  return deps.uow.read((repos) => loadSettings(repos, input.brandId));
}
