import { AD_HOC_RETURN_MODES, BrandSettings, INVOICING_MODES } from '@brand/core';
import {
  Static,
  Type,
  boolean,
  component,
  dateTime,
  nullable,
  oneOfValues,
  percentage,
  stringMap,
} from '../http/wire-schema';
import { percent } from './amounts';

export const SettingsSchema = component(
  'Settings',
  Type.Object({
    invoicing: oneOfValues(INVOICING_MODES),
    requires_drop: boolean(),
    default_vat_rate: percentage('VAT rate of new orders'),
    ad_hoc_return_mode: nullable(oneOfValues(AD_HOC_RETURN_MODES)),
    tracking_link_templates: stringMap('Carrier code → URL template containing {track_trace}'),
    updated_at: nullable(dateTime(), { description: 'null while the brand runs on the defaults' }),
  }),
);
export type SettingsWire = Static<typeof SettingsSchema>;

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
