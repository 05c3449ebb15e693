import { ExportMark } from '@brand/core';

/** One system's confirmation that it imported a document. */
export interface ExportMarkWire {
  system_id: string;
  exported_at: string;
  note: string | null;
}

/** The `exports` of an exportable document: every system that marked it, with its latest mark. */
export function presentExportMarks(marks: readonly ExportMark[]): ExportMarkWire[] {
  return marks.map((mark) => ({ system_id: mark.systemId, exported_at: mark.exportedAt, note: mark.note }));
}
