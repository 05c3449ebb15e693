import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Product, VariantRecord } from './catalog.entities';
import { variantListDefinition } from './catalog.list-definitions';
import { VariantRef } from './catalog.ports';
import { CatalogRelations, emptyCatalogRelations, loadCostPriceSets, loadStockByVariant } from './list-products';
import { settleAll } from '../shared/settle-all';

/** What the variant includes (`prices`, `inventory`, `cost_prices`, `product`) need, by id. */
export interface VariantRelations extends CatalogRelations {
  /** The variants' prices and cost prices by variant id (`prices`, `cost_prices`). */
  records: ReadonlyMap<number, VariantRecord>;
  /** The variants' products by id (`product`). */
  products: ReadonlyMap<number, Product>;
}

/**
 * What `listVariants` returns: a page of variants, the validated query and the related records its
 * includes ask for.
 */
export interface VariantListResult {
  page: Page<VariantRef>;
  query: ListQuery;
  relations: VariantRelations;
}

/** Product ids per read of whole aggregates. */
const PRODUCT_BATCH = 200;

/**
 * Loads what the variant includes need, one batched read per kind: the variants' products
 * (whose aggregates carry the prices and cost prices), stock balances and cost price sets.
 */
export async function loadVariantRelations(
  repos: Pick<Repositories, 'costPriceSets' | 'products' | 'stock'>,
  brandId: number,
  variants: VariantRef[],
  includes: readonly string[],
): Promise<VariantRelations> {
  const wants = (name: string) => includes.includes(name);
  const base = emptyCatalogRelations();
  const records = new Map<number, VariantRecord>();
  const products = new Map<number, Product>();
  if (variants.length > 0 && (wants('prices') || wants('cost_prices') || wants('product'))) {
    const productIds = [...new Set(variants.map((v) => v.variant.productId))];
    const wanted = new Set(variants.map((v) => v.variant.id));
    for (let start = 0; start < productIds.length; start += PRODUCT_BATCH) {
      for (const aggregate of await repos.products.findByIds(brandId, productIds.slice(start, start + PRODUCT_BATCH))) {
        products.set(aggregate.product.id, aggregate.product);
        for (const record of aggregate.variants)
          if (wanted.has(record.variant.id)) records.set(record.variant.id, record);
      }
    }
  }
  const [stock, costPriceSets] = await settleAll([
    wants('inventory') && variants.length > 0
      ? loadStockByVariant(
          repos,
          brandId,
          variants.map((v) => v.variant.id),
        )
      : base.stock,
    wants('cost_prices') ? loadCostPriceSets(repos, brandId) : base.costPriceSets,
  ]);
  return { ...base, stock, costPriceSets, records, products };
}

/**
 * Lists a brand's variants (`GET /v10/variants`) with filters, offset or keyset pagination and
 * the includes `prices`, `inventory`, `cost_prices` and `product`, each loaded in one batch for
 * the whole page.
 *
 * @example
 * const { page, relations } = await listVariants({ uow }, { brandId, query: { includes: ['prices', 'inventory'] } });
 */
export async function listVariants(
  deps: { uow: UnitOfWork<Pick<Repositories, 'costPriceSets' | 'products' | 'stock'>> },
  request: ListRequest,
): Promise<VariantListResult> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(variantListDefinition, request, (q) =>
      repos.products.listVariants(request.brandId, q),
    );
    const relations = await loadVariantRelations(repos, request.brandId, page.items, query.includes);
    return { page, query, relations };
  });
}
