import { Account, AccountingDocumentType, AccountingEntry, AccountingEntryDetail, ExportMark } from '@brand/core';
import { ExportMarkWire, presentExportMarks } from './export-mark.presenter';

import { TimelineEventWire, presentTimeline } from './timeline.presenter';
import { money } from './amounts';

export interface AccountingLineWire {
  account: Account;
  debit: number;
  credit: number;
}

export interface AccountingEntryWire {
  id: number;
  entry_number: number;
  document_type: AccountingDocumentType;
  document_id: number;
  /** YYYY-MM-DD (UTC) of booking. */
  date: string;
  currency: string;
  /** Always balanced: the debits add up to the credits. */
  lines: AccountingLineWire[];
  created_at: string;
  updated_at: string;
  /** Absent only on entries embedded in their document. */
  exports?: ExportMarkWire[];
  /** On `GET /v10/accounting-entries/{id}` only. */
  timeline?: TimelineEventWire[];
}

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
