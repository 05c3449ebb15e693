import { listInMemory } from '../listing/in-memory-list';
import { ListDefinition, ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ProductLocale } from './catalog.entities';

/** `GET /v10/product-locales`. */
export const productLocaleListDefinition: ListDefinition<ProductLocale> = {
  resource: 'product_locales',
  fields: {
    id: { type: 'integer', get: (l) => l.id },
    code: { type: 'string', get: (l) => l.code },
    name: { type: 'string', get: (l) => l.name },
  },
  sortKeys: ['id', 'code', 'name'],
  filterKeys: ['id', 'code', 'name'],
  includes: [],
};

/**
 * Lists a brand's product locales with the usual list vocabulary. A brand has a handful of
 * locales, so they are read whole and filtered, sorted and paged in memory with the same
 * semantics the SQL lists have.
 */
export async function listProductLocales(
  deps: { uow: UnitOfWork<Pick<Repositories, 'productLocales'>> },
  request: ListRequest,
): Promise<{ page: Page<ProductLocale>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(productLocaleListDefinition, request, async (q) =>
      listInMemory(productLocaleListDefinition, q, await repos.productLocales.all(request.brandId)),
    ),
  );
}
