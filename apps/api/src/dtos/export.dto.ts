import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { MAX_MARKS_PER_CALL, MarkItem, OrderMarkItem, normalizeInstant, systemIdProblem } from '@brand/core';
import { IsId, MayBeOmitted, Satisfies, ValueCheck } from './decorators';

/*
 * Query parameters and bodies of the export interface: `GET /v10/<documents>/export` (and
 * `GET /3pl/shipments/export`) and `POST …/mark-as-exported`. The list vocabulary
 * (filter_groups, includes, limit, cursor) is checked by the list machinery; these DTOs check
 * the export's own parameters.
 */

// The export use cases check these too (as body pointers); checked here they are reported as the
// query parameters they are, before any work is done.
const systemIdValue: ValueCheck = (value) =>
  value === undefined ? 'is required: name the system that exports' : systemIdProblem(value);

const dateTimeValue: ValueCheck = (value) =>
  typeof value === 'string' && normalizeInstant(value) !== null
    ? null
    : 'must be an ISO 8601 date-time in UTC, such as 2026-03-01T09:00:00Z';

/** An include flag of an export: the spec's integers 0 and 1, nothing else ("true", "", 2 are refused). */
export function IncludeFlag(description: string): PropertyDecorator {
  return (target: object, propertyKey: string | symbol) => {
    IsOptional()(target, propertyKey);
    IsIn(['0', '1'], { message: '$property must be 0 or 1' })(target, propertyKey);
    JSONSchema({ type: 'integer', enum: [0, 1], default: 0, description })(target, String(propertyKey));
  };
}

/** `1` → true; absent or `0` → false. */
export function flag(value: '0' | '1' | undefined): boolean {
  return value === '1';
}

/** The parameters every export GET takes besides the list vocabulary. */
export class ExportQueryDto {
  @Satisfies('isSystemId', systemIdValue)
  @JSONSchema({
    type: 'string',
    description: 'The system the documents are exported to; each system exports independently.',
  })
  system_id!: string;

  @MayBeOmitted()
  @Satisfies('isUtcDateTime', dateTimeValue)
  @JSONSchema({
    type: 'string',
    format: 'date-time',
    description:
      'Default: now, i.e. documents this system never marked. An earlier instant also re-exports documents this system marked after it.',
  })
  not_exported_since?: string;
}

/** The export part of a use case's input: system and, when sent, the instant. */
export function exportScopeInput(query: ExportQueryDto): { systemId: string; notExportedSince?: string } {
  return {
    systemId: query.system_id,
    ...(query.not_exported_since !== undefined ? { notExportedSince: query.not_exported_since } : {}),
  };
}

export class OrderExportQueryDto extends ExportQueryDto {
  @IncludeFlag('1 adds draft (not approved) orders')
  include_not_approved?: '0' | '1';

  @IncludeFlag('1 adds cancelled orders')
  include_cancelled?: '0' | '1';

  @IncludeFlag('1 adds archived orders')
  include_archived?: '0' | '1';
}

export class ShipmentExportQueryDto extends ExportQueryDto {
  @IncludeFlag('1 adds cancelled shipments')
  include_cancelled?: '0' | '1';

  @IncludeFlag('1 adds completed (delivered) shipments')
  include_completed?: '0' | '1';
}

/** Invoices and credit notes. */
export class FinancialDocumentExportQueryDto extends ExportQueryDto {
  @IncludeFlag('1 adds draft (not booked) documents')
  include_non_booked?: '0' | '1';
}

// ---- mark-as-exported bodies ----

const MAX_NOTE_LENGTH = 1000;
const ITEMS_MESSAGE = {
  array: 'must be an array of documents to mark',
  min: 'must contain at least one document',
  max: `must contain at most ${MAX_MARKS_PER_CALL} documents`,
};

/** What every mark item has besides its id: the system and an optional note. */
export abstract class MarkItemDto {
  @Satisfies('isSystemId', systemIdValue)
  @JSONSchema({ type: 'string', description: 'The system that imported the document.' })
  system_id!: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_NOTE_LENGTH)
  @JSONSchema({ description: "Shown in the document's timeline." })
  note?: string | null;
}

@JSONSchema({ title: 'OrderMarkItem' })
export class OrderMarkItemDto extends MarkItemDto {
  @IsId()
  order_id!: number;

  @IsBoolean()
  @JSONSchema({
    description:
      'true archives the order and takes its pieces out of In stock; false leaves order and inventory as they are.',
  })
  regulate_inventory!: boolean;
}

@JSONSchema({ title: 'ShipmentMarkItem' })
export class ShipmentMarkItemDto extends MarkItemDto {
  @IsId()
  shipment_id!: number;
}

@JSONSchema({ title: 'InvoiceMarkItem' })
export class InvoiceMarkItemDto extends MarkItemDto {
  @IsId()
  invoice_id!: number;
}

@JSONSchema({ title: 'CreditNoteMarkItem' })
export class CreditNoteMarkItemDto extends MarkItemDto {
  @IsId()
  credit_note_id!: number;
}

@JSONSchema({ title: 'AccountingEntryMarkItem' })
export class AccountingEntryMarkItemDto extends MarkItemDto {
  @IsId()
  accounting_entry_id!: number;
}

/** The array of a mark body: 1 to 10 items of `item`. */
export const markItems =
  (item: () => new () => object): PropertyDecorator =>
  (target, key) => {
    IsArray({ message: ITEMS_MESSAGE.array })(target, key);
    ArrayMinSize(1, { message: ITEMS_MESSAGE.min })(target, key);
    ArrayMaxSize(MAX_MARKS_PER_CALL, { message: ITEMS_MESSAGE.max })(target, key);
    ValidateNested({ each: true })(target, key);
    Type(item)(target, key);
  };

@JSONSchema({
  title: 'OrdersMarkAsExported',
  description: `At most ${MAX_MARKS_PER_CALL} orders; all are marked or, when one is refused, none.`,
})
export class OrdersMarkAsExportedDto {
  @markItems(() => OrderMarkItemDto)
  orders!: OrderMarkItemDto[];
}

@JSONSchema({
  title: 'ShipmentsMarkAsExported',
  description: `At most ${MAX_MARKS_PER_CALL} shipments; all are marked or, when one is refused, none.`,
})
export class ShipmentsMarkAsExportedDto {
  @markItems(() => ShipmentMarkItemDto)
  shipments!: ShipmentMarkItemDto[];
}

@JSONSchema({
  title: 'InvoicesMarkAsExported',
  description: `At most ${MAX_MARKS_PER_CALL} invoices; all are marked or, when one is refused, none.`,
})
export class InvoicesMarkAsExportedDto {
  @markItems(() => InvoiceMarkItemDto)
  invoices!: InvoiceMarkItemDto[];
}

@JSONSchema({
  title: 'CreditNotesMarkAsExported',
  description: `At most ${MAX_MARKS_PER_CALL} credit notes; all are marked or, when one is refused, none.`,
})
export class CreditNotesMarkAsExportedDto {
  @markItems(() => CreditNoteMarkItemDto)
  credit_notes!: CreditNoteMarkItemDto[];
}

@JSONSchema({
  title: 'AccountingEntriesMarkAsExported',
  description: `At most ${MAX_MARKS_PER_CALL} accounting entries; all are marked or, when one is refused, none.`,
})
export class AccountingEntriesMarkAsExportedDto {
  @markItems(() => AccountingEntryMarkItemDto)
  accounting_entries!: AccountingEntryMarkItemDto[];
}

/** The core's mark item for a validated body item whose id sits under `id`. */
export function toMarkItem(item: MarkItemDto, id: number): MarkItem {
  return { documentId: id, systemId: item.system_id, note: item.note ?? null };
}

/** The core's items of `POST /v10/orders/mark-as-exported`. */
export function toOrderMarks(body: OrdersMarkAsExportedDto): OrderMarkItem[] {
  return body.orders.map((item) => ({
    orderId: item.order_id,
    systemId: item.system_id,
    note: item.note ?? null,
    regulateInventory: item.regulate_inventory,
  }));
}
