import { ExportRequest, ExportResult, exportScopeOf, exportStatuses, runExport } from '../documents/export-documents';
import { Clock } from '../shared/clock.ports';
import { UnitOfWork } from '../shared/unit-of-work.ports';
import { ProductionOrder, ProductionOrderStatus } from './production.entities';
import { productionOrderExportListDefinition } from './production.list-definitions';
import { ProductionOrderListRepositories, ProductionRelated, loadProductionRelated } from './production-view';

/**
 * `GET /v10/production-orders/export`: open production orders not yet exported by the system;
 * drafts with `include_open` (the spec's name for it) and closed ones with `include_closed`.
 * The related data the page's includes ask for is loaded with one read per kind.
 */
export async function exportProductionOrders(
  deps: { uow: UnitOfWork<ProductionOrderListRepositories>; clock: Clock },
  input: ExportRequest & { includeOpen?: boolean; includeClosed?: boolean },
): Promise<ExportResult<ProductionOrder> & { related: ProductionRelated }> {
  const scope = exportScopeOf(
    input,
    deps.clock,
    exportStatuses<ProductionOrderStatus>(
      ['open'],
      [
        [input.includeOpen, 'draft'],
        [input.includeClosed, 'closed'],
      ],
    ),
  );
  return deps.uow.read(async (repos) => {
    const result = await runExport(repos, 'production_order', productionOrderExportListDefinition, input, (q) =>
      repos.productionOrders.listForExport(input.list.brandId, q, scope),
    );
    const includes = result.query.includes;
    const related = await loadProductionRelated(repos, input.list.brandId, result.page.items, {
      deliveryNotes: includes.includes('deliveryNotes'),
      salesOrders: includes.some((i) => i.startsWith('salesOrders')),
      catalog: includes.some((i) => i.endsWith('.product') || i.endsWith('.variant')),
    });
    return { ...result, related };
  });
}
