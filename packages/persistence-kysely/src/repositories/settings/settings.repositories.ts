import {
  AdHocReturnMode,
  BrandSettings,
  BrandSettingsRepository,
  InvoicingMode,
  SettingsRepositories,
} from '@brand/core';
import { Selectable } from 'kysely';
import { BrandSettingsTable } from '../../tables/orders.tables';
import { bulkInsert } from '../bulk-insert';
import { Executor, RepositoryFactories, fromFlag, toFlag } from '../executor';
import { fromJson, toJson } from '../json-columns';
import { KeptStatement, runKept } from '../kept-statements';

const rowToSettings = (r: Selectable<BrandSettingsTable>): BrandSettings => ({
  brandId: Number(r.brand_id),
  invoicing: r.invoicing as InvoicingMode,
  requiresDrop: fromFlag(r.requires_drop),
  defaultVatRateBasisPoints: Number(r.default_vat_rate_basis_points),
  adHocReturnMode: r.ad_hoc_return_mode as AdHocReturnMode | null,
  trackingLinkTemplates: fromJson<Record<string, string>>(r.tracking_link_templates, {}),
  updatedAt: r.updated_at,
});

const SETTINGS_UPSERT =
  'on conflict ("brand_id") do update set "invoicing" = excluded."invoicing", "requires_drop" = excluded."requires_drop", ' +
  '"default_vat_rate_basis_points" = excluded."default_vat_rate_basis_points", "ad_hoc_return_mode" = excluded."ad_hoc_return_mode", ' +
  '"tracking_link_templates" = excluded."tracking_link_templates", "updated_at" = excluded."updated_at"';

const SETTINGS_OF_BRAND: KeptStatement<Selectable<BrandSettingsTable>> = (db, [brandId]) =>
  db.selectFrom('brand_settings').selectAll().where('brand_id', '=', brandId);

export function brandSettingsRepository(executor: Executor): BrandSettingsRepository {
  return {
    async find(brandId) {
      const [row] = await runKept(executor, SETTINGS_OF_BRAND, [brandId]);
      return row ? rowToSettings(row) : null;
    },
    async save(settings) {
      await bulkInsert(
        executor,
        'brand_settings',
        [
          {
            brand_id: settings.brandId,
            invoicing: settings.invoicing,
            requires_drop: toFlag(settings.requiresDrop),
            default_vat_rate_basis_points: settings.defaultVatRateBasisPoints,
            ad_hoc_return_mode: settings.adHocReturnMode,
            tracking_link_templates: toJson(settings.trackingLinkTemplates),
            updated_at: settings.updatedAt,
          },
        ],
        { conflict: SETTINGS_UPSERT },
      );
    },
  };
}

/** The settings module's repository, as the unit of work makes it. */
export const settingsRepositoryFactories: RepositoryFactories<SettingsRepositories> = {
  settings: (executor) => brandSettingsRepository(executor),
};
