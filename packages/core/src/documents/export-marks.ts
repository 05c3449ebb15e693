// Marks that a system imported a document: the request every mark-as-exported call makes, its
// check before anything is written, and the marks and timeline notes it records. Shared by the
// orders' use case (which may also regulate stock) and the other documents'.
import { ViolationList } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { DocumentType, ExportMark } from './document.entities';
import { systemIdProblem } from './export-documents';

/** The most documents one mark-as-exported call may confirm (spec, Limits). */
export const MAX_MARKS_PER_CALL = 10;

/** One item of a mark-as-exported body, after the API mapped its id key (`order_id`, …) to `documentId`. */
export interface MarkItem {
  documentId: number;
  systemId: string;
  note: string | null;
}

/**
 * What `markDocumentsExported` is asked: the brand, the acting user, the document type and the
 * marks to record (with where they sit in the request, for error pointers).
 */
export interface MarkRequest {
  brandId: number;
  userId: number | null;
  documentType: DocumentType;
  /** Where the array sits in the body (`orders`), for pointers in errors. */
  arrayKey: string;
  /** The item's id key (`order_id`), for pointers in errors. */
  idKey: string;
  items: MarkItem[];
}

/**
 * Checks a mark-as-exported call as a whole before anything is written: at most 10 items, every
 * `system_id` usable, and every id a document of this brand (`existingIds` answers which of the
 * ids are). An unknown or foreign id is a 422 naming its item; nothing of the call is marked then.
 */
export async function checkMarkRequest(
  request: MarkRequest,
  existingIds: (ids: number[]) => Promise<Set<number>>,
): Promise<void> {
  const violations = new ViolationList();
  if (request.items.length === 0) violations.add(`/${request.arrayKey}`, 'must contain at least one document');
  if (request.items.length > MAX_MARKS_PER_CALL)
    violations.add(`/${request.arrayKey}`, `must contain at most ${MAX_MARKS_PER_CALL} documents`);
  violations.throwIfAny();
  const found = await existingIds([...new Set(request.items.map((i) => i.documentId))]);
  request.items.forEach((item, i) => {
    if (!found.has(item.documentId))
      violations.add(
        `/${request.arrayKey}/${i}/${request.idKey}`,
        `${item.documentId} is not ${withArticle(request.documentType.replace('_', ' '))} of this brand`,
      );
    const problem = systemIdProblem(item.systemId);
    if (problem) violations.add(`/${request.arrayKey}/${i}/system_id`, problem);
  });
  violations.throwIfAny();
}

const withArticle = (noun: string): string => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

/** Records the marks and their timeline notes (one event per item) inside the caller's transaction. */
export async function recordMarks(
  tx: Pick<Repositories, 'exportMarks' | 'timeline'>,
  request: MarkRequest,
  at: string,
): Promise<void> {
  // One mark per (document, system) even when a call names a pair twice (the later item wins),
  // so an adapter's single upsert statement never touches a row twice.
  const marks = new Map<string, ExportMark>();
  for (const item of request.items) {
    marks.set(`${item.documentId}\u0000${item.systemId}`, {
      brandId: request.brandId,
      documentType: request.documentType,
      documentId: item.documentId,
      systemId: item.systemId,
      exportedAt: at,
      note: item.note,
    });
  }
  await tx.exportMarks.mark([...marks.values()]);
  await tx.timeline.append(
    request.items.map((item) => ({
      brandId: request.brandId,
      documentType: request.documentType,
      documentId: item.documentId,
      kind: 'exported',
      note: item.note,
      systemId: item.systemId,
      userId: request.userId,
      createdAt: at,
    })),
  );
}
