import { IsBoolean, IsIn, IsObject, IsOptional } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  AD_HOC_RETURN_MODES,
  AdHocReturnMode,
  BrandSettingsChanges,
  INVOICING_MODES,
  InvoicingMode,
  PERCENT_SCALE,
  parseDecimal,
} from '@brand/core';
import { IsDecimal, MayBeOmitted } from './decorators';

/** `PATCH /v10/settings`: every field optional; fields not sent keep their value. */
@JSONSchema({ title: 'UpdateSettingsRequest' })
export class UpdateSettingsDto {
  @MayBeOmitted()
  @IsIn(INVOICING_MODES, { message: `must be one of ${INVOICING_MODES.join(', ')}` })
  @JSONSchema({
    type: 'string',
    enum: [...INVOICING_MODES],
    description:
      "external: an ERP invoices, stock is regulated by the orders' mark-as-exported. in_service: invoices are drafted on delivery and regulate stock when booked.",
  })
  invoicing?: InvoicingMode;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'B2B orders must name a drop unless their channel has a fixed one.' })
  requires_drop?: boolean;

  @MayBeOmitted()
  @IsDecimal(2, { min: 0, max: 100 })
  @JSONSchema({ description: 'VAT rate of new orders in percent (25 = 25 %), at most 2 decimals.' })
  default_vat_rate?: number;

  @IsOptional()
  @IsIn(AD_HOC_RETURN_MODES, {
    message: `must be one of ${AD_HOC_RETURN_MODES.join(', ')}, or null to turn ad hoc returns off`,
  })
  @JSONSchema({
    type: ['string', 'null'],
    enum: [...AD_HOC_RETURN_MODES, null],
    description: 'How ad hoc returns are handled; null turns them off.',
  })
  ad_hoc_return_mode?: AdHocReturnMode | null;

  @MayBeOmitted()
  @IsObject({ message: 'must be an object of carrier codes to link templates' })
  // The core checks each template (an https URL with {track_trace}) and names its carrier in the pointer.
  @JSONSchema({
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      'Replaces the templates: carrier code → https URL containing {track_trace}. They extend and override the built-in carriers.',
  })
  tracking_link_templates?: Record<string, string>;
}

/** The core's changes of a validated body; only what was sent. */
export function toSettingsChanges(body: UpdateSettingsDto): BrandSettingsChanges {
  const changes: BrandSettingsChanges = {};
  if (body.invoicing !== undefined) changes.invoicing = body.invoicing;
  if (body.requires_drop !== undefined) changes.requiresDrop = body.requires_drop;
  // At most 2 decimals were allowed, so the conversion to basis points is exact.
  if (body.default_vat_rate !== undefined)
    changes.defaultVatRateBasisPoints = parseDecimal(body.default_vat_rate, PERCENT_SCALE)!;
  if (body.ad_hoc_return_mode !== undefined) changes.adHocReturnMode = body.ad_hoc_return_mode;
  if (body.tracking_link_templates !== undefined) changes.trackingLinkTemplates = body.tracking_link_templates;
  return changes;
}
