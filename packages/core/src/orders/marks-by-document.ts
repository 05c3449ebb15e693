import { DocumentType, ExportMark } from '../documents/document.entities';
import { Repositories } from '../shared/unit-of-work.ports';

/** The export marks of a page of documents in one read, by document id (documents never marked get `[]`). */
export async function marksByDocument(
  repos: Pick<Repositories, 'exportMarks'>,
  brandId: number,
  documentType: DocumentType,
  documentIds: readonly number[],
): Promise<Map<number, ExportMark[]>> {
  const byDocument = new Map<number, ExportMark[]>(documentIds.map((id) => [id, []]));
  if (documentIds.length === 0) return byDocument;
  for (const mark of await repos.exportMarks.marksOf(brandId, documentType, [...new Set(documentIds)])) {
    byDocument.get(mark.documentId)?.push(mark);
  }
  return byDocument;
}
