import { BrandSettings } from './settings.entities';

/** Each brand's saved settings. */
export interface BrandSettingsRepository {
  /** The brand's saved settings, or null when it never saved any (callers fall back to `defaultBrandSettings`). */
  find(brandId: number): Promise<BrandSettings | null>;
  save(settings: BrandSettings): Promise<void>;
}

/** The settings module's repositories; the declaration below adds them to `Repositories`. */
export interface SettingsRepositories {
  settings: BrandSettingsRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends SettingsRepositories {}
}
