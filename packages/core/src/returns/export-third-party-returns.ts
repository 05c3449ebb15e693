import { ExportRequest, ExportResult, exportScopeOf, exportStatuses } from '../documents/export-documents';
import { runList } from '../listing/run-list';
import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ReturnStatus } from './return.entities';
import { thirdPartyReturnExportListDefinition } from './return.list-definitions';
import { ReturnView, loadReturnViews } from './return-view';

/** The statuses `GET /3pl/returns/export` includes: approved RMAs (expected at the warehouse), plus drafts and received ones on request. */
export function returnExportStatuses(input: { includeDrafts?: boolean; includeReceived?: boolean }): ReturnStatus[] {
  return exportStatuses<ReturnStatus>(
    ['approved'],
    [
      [input.includeDrafts, 'open'],
      [input.includeReceived, 'received'],
      [input.includeReceived, 'credited'],
    ],
  );
}

/**
 * `GET /3pl/returns/export`: returns this system has not marked exported, in the warehouse's
 * form. By default the approved RMAs (what the warehouse should expect); `includeDrafts` adds open
 * (not yet approved) ones, `includeReceived` the received and credited ones.
 */
export async function exportThirdPartyReturns(
  deps: { uow: UnitOfWork<Pick<Repositories, 'customers' | 'exportMarks' | 'returns'>>; clock: Clock },
  input: ExportRequest & { includeDrafts?: boolean; includeReceived?: boolean },
): Promise<ExportResult<ReturnView>> {
  const scope = exportScopeOf(input, deps.clock, returnExportStatuses(input));
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(thirdPartyReturnExportListDefinition, input.list, (q) =>
      repos.returns.listForExport(input.list.brandId, q, scope),
    );
    const views = await loadReturnViews(repos, input.list.brandId, page.items);
    return { page: { ...page, items: views }, query, exports: new Map(views.map((v) => [v.ret.id, v.exports])) };
  });
}
