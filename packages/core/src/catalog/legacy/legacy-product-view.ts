import { settleAll } from '../../shared/settle-all';
import { Repositories } from '../../shared/unit-of-work.ports';
import { Category, Collection, Product, ProductAggregate, Subbrand, VariantRecord } from '../catalog.entities';
import { stockKeyOf } from './legacy-product-stock';

/*
 * A product and a variant as the older interface shows them: the record with the related records
 * its includes ask for (categories, collection, sub-brand, stock per variant).
 */

/** What the legacy product reads use: the product and the relations its view shows. */
export type LegacyProductReadRepositories = Pick<
  Repositories,
  'categories' | 'collections' | 'inventoryLocations' | 'products' | 'stock' | 'subbrands'
>;

/** Stock of one variant at one location, under its stock-type key. */
export interface LegacyStock {
  key: string;
  locationId: number;
  inStock: number;
  available: number;
}

/**
 * The related records a legacy product read loads for its includes: categories, collection,
 * sub-brand and stock per variant.
 */
export interface LegacyProductRelations {
  includes: string[];
  categories: Map<number, Category>;
  collections: Map<number, Collection>;
  subbrands: Map<number, Subbrand>;
  /** Stock per variant id, filled when `variants.inventory` is in `includes`. */
  stock: Map<number, LegacyStock[]>;
}

/** Loads what the includes ask for (`categories`, `collection`, `subbrand`, `variants.inventory`), one query each. */
export async function loadLegacyProductRelations(
  repos: Pick<Repositories, 'categories' | 'collections' | 'inventoryLocations' | 'stock' | 'subbrands'>,
  brandId: number,
  aggregates: ProductAggregate[],
  includes: string[],
): Promise<LegacyProductRelations> {
  const relations: LegacyProductRelations = {
    includes,
    categories: new Map(),
    collections: new Map(),
    subbrands: new Map(),
    stock: new Map(),
  };
  const products = aggregates.map((a) => a.product);
  const ids = (pick: (p: Product) => number[]) => [...new Set(products.flatMap(pick))];
  const categoryIds = includes.includes('categories') ? ids((p) => p.categoryIds) : [];
  const collectionIds = includes.includes('collection')
    ? ids((p) => (p.collectionId !== null ? [p.collectionId] : []))
    : [];
  const subbrandIds = includes.includes('subbrand') ? ids((p) => (p.subbrandId !== null ? [p.subbrandId] : [])) : [];
  const variantIds = includes.includes('variants.inventory')
    ? aggregates.flatMap((a) => a.variants.map((v) => v.variant.id))
    : [];
  const [categories, collections, subbrands, balances] = await settleAll([
    categoryIds.length ? repos.categories.findByIds(brandId, categoryIds) : [],
    collectionIds.length ? repos.collections.findByIds(brandId, collectionIds) : [],
    subbrandIds.length ? repos.subbrands.findByIds(brandId, subbrandIds) : [],
    variantIds.length ? repos.stock.balances(brandId, variantIds) : [],
  ]);
  for (const c of categories) relations.categories.set(c.id, c);
  for (const c of collections) relations.collections.set(c.id, c);
  for (const s of subbrands) relations.subbrands.set(s.id, s);
  if (balances.length > 0) {
    const locations = new Map(
      (await repos.inventoryLocations.findByIds(brandId, [...new Set(balances.map((b) => b.locationId))])).map((l) => [
        l.id,
        l,
      ]),
    );
    const ordered = [...balances].sort(
      (a, b) =>
        Number(locations.get(b.locationId)?.isDefault ?? false) -
          Number(locations.get(a.locationId)?.isDefault ?? false) || a.locationId - b.locationId,
    );
    for (const balance of ordered) {
      const location = locations.get(balance.locationId);
      if (!location) continue;
      const line: LegacyStock = {
        key: stockKeyOf(location),
        locationId: location.id,
        inStock: balance.inStock,
        available: balance.inStock - balance.reserved,
      };
      relations.stock.set(balance.variantId, [...(relations.stock.get(balance.variantId) ?? []), line]);
    }
  }
  return relations;
}

/** A product as the older interface shows it, with what its includes need. */
export interface LegacyProductView {
  aggregate: ProductAggregate;
  relations: LegacyProductRelations;
}

/** A variant as the older interface shows it, with its stock. */
export interface LegacyVariantView {
  record: VariantRecord;
  relations: LegacyProductRelations;
}
