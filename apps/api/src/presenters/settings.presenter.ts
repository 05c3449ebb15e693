import { AdHocReturnMode, BrandSettings, InvoicingMode } from '@brand/core';
import { percent } from './amounts';

export interface SettingsWire {
  invoicing: InvoicingMode;
  requires_drop: boolean;
  /** Percent (25 = 25 %). */
  default_vat_rate: number;
  ad_hoc_return_mode: AdHocReturnMode | null;
  tracking_link_templates: Record<string, string>;
  /** null while the brand runs on the defaults (never saved). */
  updated_at: string | null;
}

export function presentSettings(settings: BrandSettings): SettingsWire {
  return {
    invoicing: settings.invoicing,
    requires_drop: settings.requiresDrop,
    default_vat_rate: percent(settings.defaultVatRateBasisPoints),
    ad_hoc_return_mode: settings.adHocReturnMode,
    tracking_link_templates: { ...settings.trackingLinkTemplates },
    updated_at: settings.updatedAt,
  };
}
