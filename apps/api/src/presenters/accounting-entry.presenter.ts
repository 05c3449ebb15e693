import { Account, AccountingDocumentType, AccountingEntry, AccountingEntryDetail, ExportMark } from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  component,
  currency,
  dateTime,
  day,
  integer,
  amount,
  oneOfValues,
  optional,
} from '../http/wire-schema';
import { exportMarksProperty, presentExportMarks } from './export-mark.presenter';
import { TimelineEventSchema, presentTimeline } from './timeline.presenter';
import { money } from './amounts';

export const AccountingLineSchema = Type.Object({
  account: oneOfValues<Account>(['accounts_receivable', 'revenue', 'vat_payable']),
  debit: amount('Debit'),
  credit: amount('Credit'),
});
export type AccountingLineWire = Static<typeof AccountingLineSchema>;

export const AccountingEntrySchema = component(
  'AccountingEntry',
  Type.Object({
    id: integer(),
    entry_number: integer(),
    document_type: oneOfValues<AccountingDocumentType>(['invoice', 'credit_note']),
    document_id: integer(),
    date: day('Day of booking (UTC)'),
    currency: currency(),
    lines: arrayOf(AccountingLineSchema, 'Balanced: the debits add up to the credits'),
    created_at: dateTime(),
    updated_at: dateTime(),
    exports: optional(exportMarksProperty(true)),
    timeline: optional(arrayOf(TimelineEventSchema, 'On GET /v10/accounting-entries/{id}, oldest first')),
  }),
);
export type AccountingEntryWire = Static<typeof AccountingEntrySchema>;

/** An accounting entry with its lines (always); `exports` when given. */
export function presentAccountingEntry(
  entry: AccountingEntry,
  options: { exports?: readonly ExportMark[] } = {},
): AccountingEntryWire {
  const wire: AccountingEntryWire = {
    id: entry.id,
    entry_number: entry.entryNumber,
    document_type: entry.documentType,
    document_id: entry.documentId,
    date: entry.date,
    currency: entry.currency,
    lines: entry.lines.map((l) => ({ account: l.account, debit: money(l.debit), credit: money(l.credit) })),
    created_at: entry.createdAt,
    updated_at: entry.updatedAt,
  };
  if (options.exports) wire.exports = presentExportMarks(options.exports);
  return wire;
}

/** `GET /v10/accounting-entries/{id}`: the entry with its lines, exports and timeline. */
export function presentAccountingEntryDetail(detail: AccountingEntryDetail): AccountingEntryWire {
  return {
    ...presentAccountingEntry(detail.entry, { exports: detail.exports }),
    timeline: presentTimeline(detail.timeline),
  };
}
