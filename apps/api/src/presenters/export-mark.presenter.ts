import { ExportMark } from '@brand/core';
import { Static, Type, arrayOf, component, dateTime, nullable, string } from '../http/wire-schema';

/** One system's confirmation that it imported a document. */
export const ExportMarkSchema = component(
  'ExportMark',
  Type.Object({
    system_id: string('The system that confirmed the export'),
    exported_at: dateTime(),
    note: nullable(string()),
  }),
);
export type ExportMarkWire = Static<typeof ExportMarkSchema>;

/**
 * The `exports` property of an exportable document. `omittedWhenEmbedded` for documents that
 * also appear inside another one without their marks (a shipment inside its order).
 */
export function exportMarksProperty(omittedWhenEmbedded: boolean) {
  const note = omittedWhenEmbedded ? '; absent on documents embedded in another (GET them for their marks)' : '';
  return arrayOf(ExportMarkSchema, `Systems that marked the document exported, each with its latest mark${note}`);
}

/** The `exports` of an exportable document: every system that marked it, with its latest mark. */
export function presentExportMarks(marks: readonly ExportMark[]): ExportMarkWire[] {
  return marks.map((mark) => ({ system_id: mark.systemId, exported_at: mark.exportedAt, note: mark.note }));
}
