import { ListDefinition, ListQuery, ListRows, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { DocumentType, ExportMark, ExportScope } from './document.entities';
import { marksByDocument } from '../orders/marks-by-document';

/**
 * The plumbing every export GET shares (`GET /v10/{orders,…}/export`, `GET /3pl/shipments/export`):
 * check `system_id` and `not_exported_since`, walk the resource's export list for that scope, and
 * load the marks of the page. The per-resource use cases only choose the statuses.
 */

/** The longest `system_id` accepted (it is stored with every mark). */
export const MAX_SYSTEM_ID_LENGTH = 100;

/** Why a `system_id` (of an export GET or a mark item) is refused, or null when it is fine. */
export function systemIdProblem(systemId: unknown): string | null {
  if (typeof systemId !== 'string' || systemId.trim() === '') return 'is required: name the system that exports';
  if (systemId.length > MAX_SYSTEM_ID_LENGTH) return `must be at most ${MAX_SYSTEM_ID_LENGTH} characters`;
  return null;
}

/** What every export use case takes, beside its status flags. */
export interface ExportRequest {
  /** The list part of the query (filters, sort, limit, cursor); the brand is `list.brandId`. */
  list: ListRequest;
  /** The receiving system; each system walks its own "not yet exported" set. */
  systemId: string;
  /** ISO-8601 instant (UTC unless an offset is given); defaults to now. Marks after it do not hide a document. */
  notExportedSince?: string;
}

/**
 * What an export walk returns: a page of documents not yet exported for the system, the validated
 * query and every mark of the page's documents.
 */
export interface ExportResult<T> {
  page: Page<T>;
  query: ListQuery;
  /** Marks of every document of the page by id (all systems, not only `systemId`). */
  exports: Map<number, ExportMark[]>;
}

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO-8601 datetime in the fixed-width UTC form marks are stored in (so that "marked at or
 * before" compares correctly as text in every adapter); null when it is not one. A datetime
 * without a zone is UTC; an offset is converted; impossible dates (February 30) are refused
 * rather than rolled over.
 */
export function normalizeInstant(text: string): string | null {
  const match = DATETIME.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '00', fraction = '', zone = 'Z'] = match;
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > daysInMonth) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${offset}`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/**
 * Checks the export parameters and returns the scope to hand the repository. Problems are a
 * `validation_failed` naming the query parameter by pointer (`/system_id`,
 * `/not_exported_since`), the same pointer form list-query problems use.
 */
export function exportScopeOf(request: ExportRequest, clock: Clock, statuses?: readonly string[]): ExportScope {
  const violations = new ViolationList();
  // Kept as sent (not trimmed): marks store it verbatim, and export and mark must name the same system.
  const systemId = request.systemId;
  const problem = systemIdProblem(systemId);
  if (problem) violations.add('/system_id', problem);
  let notExportedSince = clock.now();
  if (request.notExportedSince !== undefined) {
    const instant = typeof request.notExportedSince === 'string' ? normalizeInstant(request.notExportedSince) : null;
    if (instant === null)
      violations.add('/not_exported_since', 'must be an ISO-8601 UTC datetime such as 2026-01-31T23:00:00Z');
    else notExportedSince = instant;
  }
  violations.throwIfAny();
  return { systemId, notExportedSince, ...(statuses ? { statuses } : {}) };
}

/** The statuses an export includes: the base ones plus those whose flag is set. */
export function exportStatuses<S extends string>(
  base: readonly S[],
  optional: ReadonlyArray<readonly [flag: boolean | undefined, status: S]>,
): S[] {
  return [...base, ...optional.filter(([flag]) => flag === true).map(([, status]) => status)];
}

/** Runs one page of an export list and loads the marks of its documents. */
export async function runExport<T extends { id: number }>(
  repos: Pick<Repositories, 'exportMarks'>,
  documentType: DocumentType,
  definition: ListDefinition<T>,
  request: ExportRequest,
  fetch: (query: ListQuery) => Promise<ListRows<T>>,
): Promise<ExportResult<T>> {
  const { page, query } = await runList(definition, request.list, fetch);
  const exports = await marksByDocument(
    repos,
    request.list.brandId,
    documentType,
    page.items.map((item) => item.id),
  );
  return { page, query, exports };
}
