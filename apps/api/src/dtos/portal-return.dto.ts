import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  CLAIM_TYPES,
  GiftCardBonusType,
  MONEY_SCALE,
  PortalReturnInput,
  PortalReturnLineInput,
  parseDecimal,
  returnLifecycle,
  GIFT_CARD_BONUS_TYPES,
} from '@brand/core';
import {
  IsAmount,
  IsDecimal,
  IsId,
  IsInt32,
  MayBeOmitted,
  Satisfies,
  documentNumber,
  documentNumberValue,
} from './decorators';
import { lineArray } from './variant-lines.dto';

/*
 * Bodies of the external return portal interface (`PUT …/returns`, `POST …/returns/finalize`).
 * Shapes only: whether the order, e-mail, variants and claim causes fit, and how the status may
 * move, is the core's business. Amounts are decimals with at most 2 decimals (converted exactly
 * to minor units).
 */

/** A percentage or an amount; low enough to be exact in ten-thousandths. */
const MAX_GIFT_CARD_BONUS = 1_000_000_000;
const minorUnits = (value: number): number => parseDecimal(value, MONEY_SCALE)!;

@JSONSchema({
  title: 'PortalReturnLine',
  description: 'Pieces of one variant of the brand (by variant_id, sku or ean) the customer sends back.',
})
export class PortalReturnLineDto {
  @MayBeOmitted()
  @IsId()
  @JSONSchema({
    description: 'Required if neither sku nor ean is sent; when several keys are sent they must name the same variant.',
  })
  variant_id?: number;

  @MayBeOmitted()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({ description: 'Required if neither variant_id nor ean is sent.' })
  sku?: string;

  @MayBeOmitted()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({
    description: 'Required if neither variant_id nor sku is sent; must match exactly one variant of the brand.',
  })
  ean?: string;

  @IsInt32({ min: 1 })
  quantity!: number;

  @IsIn(CLAIM_TYPES, { message: `claim_type must be one of ${CLAIM_TYPES.join(', ')}` })
  @JSONSchema({ type: 'string', enum: [...CLAIM_TYPES] })
  claim_type!: string;

  @IsOptional()
  @IsId()
  @JSONSchema({
    description: 'A claim cause of the brand; required (or claim_cause_code) when the portal requires claim causes.',
  })
  claim_cause_id?: number | null;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({ description: 'Looked up ignoring case; refused when several causes share it.' })
  claim_cause_code?: string | null;

  @IsAmount()
  @JSONSchema({ description: 'Unit price paid on the original order, incl. VAT; the credit note refunds it.' })
  unit_price_incl_vat!: number;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @JSONSchema({ description: "The customer's comment." })
  text?: string | null;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ default: true, description: 'When false, received pieces are not put back in stock.' })
  regulate_inventory?: boolean;
}

@JSONSchema({
  title: 'PortalReturn',
  description: 'Fields left out keep their stored value on an existing return; lines are always the full desired set.',
})
export class PortalReturnBodyDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @JSONSchema({
    description: 'The external RMA; must contain a digit (its digits make rma_number); unique per portal.',
  })
  rma!: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  notes?: string | null;

  @MayBeOmitted()
  @IsIn(returnLifecycle.states, { message: `status must be one of ${returnLifecycle.states.join(', ')}` })
  @JSONSchema({
    type: 'string',
    enum: [...returnLifecycle.states],
    description: 'Only approved → received moves here (every expected piece is received); credited only by finalize.',
  })
  status?: string;

  @IsOptional()
  @IsAmount()
  @JSONSchema({ description: 'Charged to the customer incl. VAT; deducted from the credit note.' })
  return_fee_incl_vat?: number | null;

  @IsOptional()
  @IsAmount()
  @JSONSchema({ description: 'Charged to the customer incl. VAT; deducted from the credit note.' })
  exchange_fee_incl_vat?: number | null;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  labelless_code?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  track_trace?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  track_trace_link?: string | null;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ default: false })
  storefront_refund_gift_card?: boolean;

  @IsOptional()
  @IsIn(GIFT_CARD_BONUS_TYPES, {
    message: `storefront_refund_gift_card_bonus_type must be one of ${GIFT_CARD_BONUS_TYPES.join(', ')}`,
  })
  @JSONSchema({ type: ['string', 'null'], enum: [...GIFT_CARD_BONUS_TYPES, null] })
  storefront_refund_gift_card_bonus_type?: GiftCardBonusType | null;

  @IsOptional()
  @IsDecimal(4, { min: 0, max: MAX_GIFT_CARD_BONUS })
  @JSONSchema({ description: 'In the units of the bonus type; echoed as sent.' })
  storefront_refund_gift_card_bonus_value?: number | null;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ default: false })
  storefront_refund_gift_card_free_shipping?: boolean;

  @lineArray(() => PortalReturnLineDto)
  lines!: PortalReturnLineDto[];
}

@JSONSchema({
  title: 'UpsertPortalReturnRequest',
  description: 'Creates the return of (portal, rma) or merges into it; replaying the same body changes nothing.',
})
export class UpsertPortalReturnDto {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @JSONSchema({
    description:
      "Required for a new return: the original order's e-mail (ignoring case); when sent later it must still match.",
  })
  email?: string | null;

  @MayBeOmitted()
  @Satisfies('isDocumentNumber', documentNumberValue)
  @JSONSchema({
    type: ['integer', 'string'],
    description:
      "Required for a new return: the original order's number; when sent later it must be the return's order.",
  })
  order_number?: number | string;

  @IsObject({
    message: (args: ValidationArguments) => (args.value === undefined ? 'is required' : 'must be an object'),
  })
  @ValidateNested()
  @Type(() => PortalReturnBodyDto)
  return!: PortalReturnBodyDto;
}

@JSONSchema({
  title: 'FinalizePortalReturnRequest',
  description: 'Books the draft credit notes of a received return and moves it to credited.',
})
export class FinalizePortalReturnDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @JSONSchema({ description: 'The external RMA used in the upsert.' })
  rma!: string;

  @IsAmount()
  @JSONSchema({ description: 'Amount refunded; with the exchange it must equal the credited total within 0.01.' })
  refund_total_price_after_vat!: number;

  @MayBeOmitted()
  @IsAmount()
  @JSONSchema({ default: 0, description: 'Part settled in replacement goods; at most the credited total.' })
  exchange_total_price_after_vat?: number;
}

const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

function toPortalLine(line: PortalReturnLineDto): PortalReturnLineInput {
  return defined({
    variantId: line.variant_id,
    sku: line.sku,
    ean: line.ean,
    quantity: line.quantity,
    claimType: line.claim_type,
    claimCauseId: line.claim_cause_id,
    claimCauseCode: line.claim_cause_code,
    unitPriceInclVat: minorUnits(line.unit_price_incl_vat),
    text: line.text,
    regulateInventory: line.regulate_inventory,
  });
}

/** The core's input of a validated upsert body; fields not sent stay undefined (they keep their stored value). */
export function toPortalReturn(body: UpsertPortalReturnDto): {
  email?: string;
  orderNumber?: number;
  ret: PortalReturnInput;
} {
  const r = body.return;
  const fee = (value: number | null | undefined) => (value === undefined || value === null ? value : minorUnits(value));
  const ret = defined({
    rma: r.rma,
    notes: r.notes,
    status: r.status,
    returnFeeInclVat: fee(r.return_fee_incl_vat),
    exchangeFeeInclVat: fee(r.exchange_fee_incl_vat),
    labellessCode: r.labelless_code,
    trackTrace: r.track_trace,
    trackTraceLink: r.track_trace_link,
    storefrontRefundGiftCard: r.storefront_refund_gift_card,
    storefrontRefundGiftCardBonusType: r.storefront_refund_gift_card_bonus_type,
    // Echoed as sent: JavaScript's shortest text of the number reads back as the same number.
    storefrontRefundGiftCardBonusValue:
      r.storefront_refund_gift_card_bonus_value === undefined || r.storefront_refund_gift_card_bonus_value === null
        ? r.storefront_refund_gift_card_bonus_value
        : String(r.storefront_refund_gift_card_bonus_value),
    storefrontRefundGiftCardFreeShipping: r.storefront_refund_gift_card_free_shipping,
    lines: r.lines.map(toPortalLine),
  }) as PortalReturnInput;
  return {
    ...(body.email !== undefined && body.email !== null ? { email: body.email } : {}),
    ...(body.order_number !== undefined ? { orderNumber: documentNumber(body.order_number) } : {}),
    ret,
  };
}

export function toFinalizeAmounts(body: FinalizePortalReturnDto): { refundTotal: number; exchangeTotal: number } {
  return {
    refundTotal: minorUnits(body.refund_total_price_after_vat),
    exchangeTotal: minorUnits(body.exchange_total_price_after_vat ?? 0),
  };
}
