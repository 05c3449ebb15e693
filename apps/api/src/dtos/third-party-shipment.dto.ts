import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { OrderType, ORDER_TYPES } from '@brand/core';
import { IsId, MayBeOmitted, Satisfies, documentNumber, documentNumberValue } from './decorators';
import { ArticleQuantityDto, toArticleQuantity } from './order.dto';

/*
 * Bodies of the warehouse's shipment calls: `POST /3pl/shipments/deliver` and
 * `POST /3pl/shipments/cancel` (mark-as-exported shares `ShipmentsMarkAsExportedDto` with v10).
 * Shapes only; whether the shipment, SKU or EAN exists is the use case's business.
 */

/** Colli per delivery and lines per colli: far above a real pallet, low enough for one transaction. */
export const MAX_COLLI = 1000;
export const MAX_COLLI_LINES = 1000;

@JSONSchema({ title: 'ThirdPartyColli', description: 'One parcel of the delivery with its tracking data.' })
export class ThirdPartyColliDto {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Tracking number; default null.' })
  track_trace?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @JSONSchema({
    description:
      "Tracking URL; default null: then built from track_trace and the carrier's link template, when there is one.",
  })
  track_trace_link?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  @JSONSchema({ description: 'SSCC of the parcel; default null.' })
  sscc_number?: string | null;

  @IsArray()
  @ArrayMaxSize(MAX_COLLI_LINES, { message: `must contain at most ${MAX_COLLI_LINES} lines` })
  @ValidateNested({ each: true })
  @Type(() => ArticleQuantityDto)
  @JSONSchema({
    description:
      'Pieces in the colli: each line a variant of the shipment by sku or ean, and the pieces delivered ([] for a parcel without listed contents).',
  })
  lines!: ArticleQuantityDto[];
}

@JSONSchema({ title: 'ThirdPartyDeliveryNote', description: 'What the warehouse sent for one shipment.' })
export class ThirdPartyDeliveryNoteDto {
  @Satisfies('isDocumentNumber', documentNumberValue)
  @JSONSchema({ type: ['integer', 'string'], description: 'The shipment number (an integer or a string of digits).' })
  shipment_number!: number | string;

  @IsIn(ORDER_TYPES, { message: `order_type must be one of ${ORDER_TYPES.join(', ')}` })
  @JSONSchema({ description: "Must equal the order's type." })
  order_type!: OrderType;

  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({ description: 'Carrier code (postnl, dhl, dpd, ups, gls, …); picks the tracking link template.' })
  carrier!: string;

  @IsArray()
  @ArrayMinSize(1, { message: 'must contain at least one colli' })
  @ArrayMaxSize(MAX_COLLI, { message: `must contain at most ${MAX_COLLI} colli` })
  @ValidateNested({ each: true })
  @Type(() => ThirdPartyColliDto)
  colli!: ThirdPartyColliDto[];
}

@JSONSchema({
  title: 'ThirdPartyDeliverShipment',
  description:
    'Reports a shipment delivered (once). Fewer pieces than the shipment holds are allowed: the rest goes back to the order as open pieces.',
})
export class ThirdPartyDeliverShipmentDto {
  @IsObject({
    message: (args: ValidationArguments) => (args.value === undefined ? 'is required' : 'must be an object'),
  })
  @ValidateNested()
  @Type(() => ThirdPartyDeliveryNoteDto)
  delivery_note!: ThirdPartyDeliveryNoteDto;
}

@JSONSchema({
  title: 'ThirdPartyCancelShipment',
  description: 'The shipment by shipment_id or by shipment_number (one of them).',
})
export class ThirdPartyCancelShipmentDto {
  @ValidateIf(
    (body: ThirdPartyCancelShipmentDto) => body.shipment_number === undefined || body.shipment_id !== undefined,
  )
  @IsId({ message: 'shipment_id must be an integer; send shipment_id or shipment_number' })
  @JSONSchema({ description: 'Required if no shipment_number.' })
  shipment_id?: number;

  @MayBeOmitted()
  @Satisfies('isDocumentNumber', documentNumberValue)
  @JSONSchema({
    type: ['integer', 'string'],
    description:
      'Required if no shipment_id (an integer or a string of digits); when both are sent they must name the same shipment.',
  })
  shipment_number?: number | string;
}

/** The core's delivery for a validated body. */
export function toDelivery(note: ThirdPartyDeliveryNoteDto): {
  shipmentNumber: number;
  orderType: OrderType;
  carrier: string;
  colli: {
    trackTrace: string | null;
    trackTraceLink: string | null;
    ssccNumber: string | null;
    lines: { sku?: string; ean?: string; quantity: number }[];
  }[];
} {
  return {
    shipmentNumber: documentNumber(note.shipment_number),
    orderType: note.order_type,
    carrier: note.carrier,
    colli: note.colli.map((colli) => ({
      trackTrace: colli.track_trace ?? null,
      trackTraceLink: colli.track_trace_link ?? null,
      ssccNumber: colli.sscc_number ?? null,
      lines: colli.lines.map(toArticleQuantity),
    })),
  };
}
