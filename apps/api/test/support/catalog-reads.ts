import { Clock, ProductAggregate, Repositories, StockBalance, VariantRecord, ensureDefaultLocation } from '@brand/core';
import { Storage } from '@brand/persistence-kysely';

/**
 * Catalog data for the read tests, written through the core repositories (not the product sync,
 * so the reads are tested on their own).
 */

export interface VariantSpec {
  sku: string;
  ean?: string | null;
  attributes?: Record<string, string>;
  /** Minor units per currency. */
  prices?: Record<string, { sales: number; rec: number; offer?: number | null; b2cOffer?: number | null }>;
  costPrices?: { costPriceSetId: number; costPrice: number }[];
  dropIds?: number[];
  overrides?: Partial<VariantRecord['variant']>;
}

export interface ProductSpec {
  itemNumber: string;
  variants?: VariantSpec[];
  product?: Partial<ProductAggregate['product']>;
  suppliers?: Omit<ProductAggregate['suppliers'][number], 'productId'>[];
  translations?: Omit<ProductAggregate['translations'][number], 'productId'>[];
}

/** Builds the aggregates (ids drawn in `tx`) with plain defaults for every field not given. */
async function buildAggregates(
  tx: Repositories,
  brandId: number,
  at: string,
  specs: ProductSpec[],
): Promise<ProductAggregate[]> {
  const productIds = await tx.ids.next('products', specs.length);
  const variantCount = specs.reduce((sum, spec) => sum + (spec.variants?.length ?? 0), 0);
  const variantIds = variantCount > 0 ? await tx.ids.next('variants', variantCount) : [];
  let nextVariant = 0;
  return specs.map((spec, p) => {
    const productId = productIds[p]!;
    const variants: VariantRecord[] = (spec.variants ?? []).map((v, position) => {
      const id = variantIds[nextVariant++]!;
      return {
        variant: {
          id,
          brandId,
          productId,
          sku: v.sku,
          ean: v.ean === undefined ? null : v.ean,
          attributes: v.attributes ?? {},
          archived: false,
          b2cAvailable: true,
          makeToOrderB2b: null,
          makeToOrderB2c: null,
          noos: null,
          weight: null,
          weightType: null,
          releaseDate: null,
          meta: {},
          picture: null,
          position,
          dropIds: v.dropIds ?? [],
          createdAt: at,
          updatedAt: at,
          ...v.overrides,
        },
        prices: Object.entries(v.prices ?? {}).map(([currency, price]) => ({
          variantId: id,
          currency,
          salesPrice: price.sales,
          recSalesPrice: price.rec,
          offerPrice: price.offer ?? null,
          b2cOfferPrice: price.b2cOffer ?? null,
        })),
        costPrices: (v.costPrices ?? []).map((c) => ({ variantId: id, ...c })),
      };
    });
    return {
      product: {
        id: productId,
        brandId,
        itemNumber: spec.itemNumber,
        name: `Product ${spec.itemNumber}`,
        description: null,
        active: true,
        makeToOrderB2b: false,
        makeToOrderB2c: false,
        meta: {},
        weight: null,
        weightType: 'g',
        noInventory: false,
        releaseDate: null,
        noos: false,
        minOrderQuantity: null,
        customSort: null,
        orderColliOnly: false,
        colli: [],
        url: null,
        metaTitle: null,
        metaDescription: null,
        tags: [],
        useSortB2c: false,
        subbrandId: null,
        collectionId: null,
        categoryIds: [],
        createdAt: at,
        updatedAt: at,
        ...spec.product,
      },
      variants,
      suppliers: (spec.suppliers ?? []).map((s) => ({ ...s, productId })),
      translations: (spec.translations ?? []).map((t) => ({ ...t, productId })),
    };
  });
}

/** Saves the products in one transaction and returns them as stored. */
export async function seedProducts(
  storage: Storage,
  clock: Clock,
  brandId: number,
  specs: ProductSpec[],
): Promise<ProductAggregate[]> {
  return storage.uow.run(async (tx) => {
    const aggregates = await buildAggregates(tx, brandId, clock.now(), specs);
    await tx.products.saveAll(brandId, aggregates);
    return aggregates;
  });
}

/** Moves stock of variants at a location (the brand's default one unless named): `inStock` pieces in, `reserved` of them held. */
export async function seedStock(
  storage: Storage,
  clock: Clock,
  brandId: number,
  entries: { variantId: number; inStock: number; reserved?: number; locationId?: number }[],
): Promise<StockBalance[]> {
  return storage.uow.run(async (tx) => {
    const fallback = entries.some((e) => e.locationId === undefined)
      ? (await ensureDefaultLocation(tx, clock, brandId)).id
      : 0;
    const base = { brandId, note: null, documentType: null, documentId: null, userId: null };
    return tx.stock.apply(
      brandId,
      entries.flatMap((e) => {
        const locationId = e.locationId ?? fallback;
        return [
          {
            ...base,
            variantId: e.variantId,
            locationId,
            inStockDelta: e.inStock,
            reservedDelta: 0,
            reason: 'sync_quantity' as const,
          },
          ...(e.reserved
            ? [
                {
                  ...base,
                  variantId: e.variantId,
                  locationId,
                  inStockDelta: 0,
                  reservedDelta: e.reserved,
                  reason: 'order_reserved' as const,
                },
              ]
            : []),
        ];
      }),
      clock.now(),
    );
  });
}
