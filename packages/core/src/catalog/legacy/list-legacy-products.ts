import { ListQuery } from '../../listing/list-query';
import { ListRequest, runList } from '../../listing/run-list';
import { DomainError } from '../../shared/errors';
import { UnitOfWork } from '../../shared/unit-of-work.ports';
import { ProductAggregate } from '../catalog.entities';
import { legacyProductListDefinition } from '../catalog.list-definitions';
import { variantsInOrder } from './legacy-product-fields';
import {
  LegacyProductReadRepositories,
  LegacyProductRelations,
  loadLegacyProductRelations,
} from './legacy-product-view';
import { legacyListRequest } from './legacy-list-request';

/**
 * What `listLegacyProducts` is asked: a list request, optionally splitting each product by one of
 * its variant attributes.
 */
export interface LegacyProductListRequest extends ListRequest {
  /**
   * Product pagination: each product comes back once per distinct value of this attribute among
   * its variants, with only the variants of that value.
   */
  splitByAttribute?: string;
}

/**
 * What `listLegacyProducts` returns: the page's products (split when asked), the total before any
 * split and the related records of its includes.
 */
export interface LegacyProductListResult {
  query: ListQuery;
  /** Products matching the filters (before any split). */
  total: number;
  /** The page's products in order; with a split, one entry per product and attribute value. */
  entries: ProductAggregate[];
  relations: LegacyProductRelations;
}

// The older form always shows variants and their prices, whatever the includes say.
const ALWAYS_LOADED = ['variants', 'variants.prices'];

/**
 * Splits a product into one entry per distinct value of `attribute` among its variants, in the
 * order the values first appear (variants without the attribute make one entry of their own, so
 * a product whose variants lack it stays whole).
 */
export function splitByAttribute(aggregate: ProductAggregate, attribute: string): ProductAggregate[] {
  const groups = new Map<string | null, ProductAggregate['variants']>();
  for (const record of variantsInOrder(aggregate)) {
    const value = record.variant.attributes[attribute] ?? null;
    groups.set(value, [...(groups.get(value) ?? []), record]);
  }
  if (groups.size === 0) return [{ ...aggregate, variants: [] }];
  return [...groups.values()].map((variants) => ({ ...aggregate, variants }));
}

/**
 * `GET /api/products`: the brand's products in the older form, paged by `page` (from 0) and
 * `limit`, with `total`. `page` and `limit` always count products; with `splitByAttribute`
 * each product of the page then comes back once per value of that attribute, so a page holds
 * `limit` products but may hold more entries. Walk such a list by increasing `page` from 0
 * until a page comes back empty.
 */
export async function listLegacyProducts(
  deps: { uow: UnitOfWork<LegacyProductReadRepositories> },
  request: LegacyProductListRequest,
): Promise<LegacyProductListResult> {
  const split = request.splitByAttribute;
  if (split !== undefined && split.trim() === '') {
    const detail = 'split_by_attribute must name an attribute, such as color';
    throw new DomainError('invalid_list_query', detail, { violations: [{ pointer: '/split_by_attribute', detail }] });
  }
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(legacyProductListDefinition, legacyListRequest(request), (q) =>
      repos.products.list(request.brandId, { ...q, includes: [...new Set([...ALWAYS_LOADED, ...q.includes])] }),
    );
    const entries =
      split === undefined
        ? page.items.map((a) => ({ ...a, variants: variantsInOrder(a) }))
        : page.items.flatMap((a) => splitByAttribute(a, split.trim()));
    const relations = await loadLegacyProductRelations(repos, request.brandId, page.items, query.includes);
    return { query, total: page.total ?? 0, entries, relations };
  });
}
