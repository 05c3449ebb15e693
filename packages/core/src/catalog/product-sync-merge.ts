import { sameData } from '../shared/sync-outcome';
import {
  Product,
  ProductAggregate,
  ProductSupplierLink,
  ProductTranslation,
  SyncMode,
  Variant,
  VariantCostPrice,
  VariantPrice,
  VariantRecord,
} from './catalog.entities';
import { mergeMeta, normalizeTags, parseMoney, parseWeight } from './product-sync-fields';
import { ProductSyncItem, VariantSyncItem } from './product-sync.input';

/**
 * Applies a (validated) sync item to the stored record, or to the defaults of a new one. Pure:
 * the ids of referenced records are already resolved, and nothing is written here.
 */

/** A product as a sync creates it before the item's fields are applied (the spec's defaults). */
export function newProduct(id: number, brandId: number, itemNumber: string, now: string): Product {
  return {
    id,
    brandId,
    itemNumber,
    name: '',
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
    createdAt: now,
    updatedAt: now,
  };
}

/** A variant as a sync creates it before the item's fields are applied. */
export function newVariant(
  id: number,
  brandId: number,
  productId: number,
  sku: string,
  position: number,
  now: string,
): VariantRecord {
  return {
    variant: {
      id,
      brandId,
      productId,
      sku,
      ean: null,
      attributes: {},
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
      dropIds: [],
      createdAt: now,
      updatedAt: now,
    },
    prices: [],
    costPrices: [],
  };
}

const pick = <T>(sent: T | undefined, current: T): T => (sent !== undefined ? sent : current);

/** Ids after a `replace` (exactly the sent ones) or `append` (the stored ones plus the sent ones). */
export function syncIds(current: number[], sent: number[], mode: SyncMode): number[] {
  return [...new Set(mode === 'replace' ? sent : [...current, ...sent])];
}

/** The product row with the item's fields applied; `categoryIds` are the resolved ids of the sent categories. */
export function mergeProduct(current: Product, item: ProductSyncItem, categoryIds: number[] | undefined): Product {
  return {
    ...current,
    name: item.name !== undefined ? item.name.trim() : current.name,
    description: pick(item.description, current.description),
    active: pick(item.active, current.active),
    makeToOrderB2b: pick(item.makeToOrderB2b, current.makeToOrderB2b),
    makeToOrderB2c: pick(item.makeToOrderB2c, current.makeToOrderB2c),
    meta: mergeMeta(current.meta, item.meta),
    weight: item.weight === undefined ? current.weight : item.weight === null ? null : parseWeight(item.weight),
    weightType: pick(item.weightType, current.weightType),
    noInventory: pick(item.noInventory, current.noInventory),
    releaseDate: pick(item.releaseDate, current.releaseDate),
    noos: pick(item.noos, current.noos),
    minOrderQuantity: pick(item.minOrderQuantity, current.minOrderQuantity),
    customSort: pick(item.customSort, current.customSort),
    orderColliOnly: pick(item.orderColliOnly, current.orderColliOnly),
    colli: item.colli !== undefined ? [...item.colli] : current.colli,
    url: pick(item.url, current.url),
    metaTitle: pick(item.metaTitle, current.metaTitle),
    metaDescription: pick(item.metaDescription, current.metaDescription),
    tags: item.tags !== undefined ? normalizeTags(item.tags) : current.tags,
    categoryIds:
      categoryIds !== undefined && item.categories
        ? syncIds(current.categoryIds, categoryIds, item.categories.mode)
        : current.categoryIds,
  };
}

/**
 * Supplier links after a sync: each sent link is taken as a whole (fields left out get their
 * defaults); `replace` drops the links not sent, `append` keeps them. A sent primary link makes
 * every other link non-primary.
 */
export function mergeSupplierLinks(
  current: ProductSupplierLink[],
  sent: ProductSupplierLink[],
  mode: SyncMode,
): ProductSupplierLink[] {
  const sentIds = new Set(sent.map((link) => link.supplierId));
  const kept = mode === 'append' ? current.filter((link) => !sentIds.has(link.supplierId)) : [];
  const hasNewPrimary = sent.some((link) => link.primary);
  return [...kept.map((link) => (hasNewPrimary ? { ...link, primary: false } : link)), ...sent];
}

/** Translations upserted per locale; the fields a sent translation leaves out keep their stored value. */
export function mergeTranslations(
  current: ProductTranslation[],
  productId: number,
  sent: {
    localeId: number;
    name: string;
    description?: string | null;
    metaTitle?: string | null;
    metaDescription?: string | null;
  }[],
): ProductTranslation[] {
  const next = new Map(current.map((t) => [t.localeId, t]));
  for (const input of sent) {
    const stored = next.get(input.localeId);
    next.set(input.localeId, {
      productId,
      localeId: input.localeId,
      name: input.name.trim(),
      description: pick(input.description, stored?.description ?? null),
      metaTitle: pick(input.metaTitle, stored?.metaTitle ?? null),
      metaDescription: pick(input.metaDescription, stored?.metaDescription ?? null),
    });
  }
  return [...next.values()];
}

function mergePrices(current: VariantPrice[], variantId: number, sent: VariantSyncItem['prices']): VariantPrice[] {
  if (sent === undefined) return current;
  const next = new Map(current.map((p) => [p.currency, p]));
  const money = (value: number | string) => parseMoney(value)!;
  for (const [currency, input] of Object.entries(sent)) {
    if (input === null) {
      next.delete(currency);
      continue;
    }
    const stored = next.get(currency);
    next.set(currency, {
      variantId,
      currency,
      salesPrice: input.salesPrice !== undefined ? money(input.salesPrice) : (stored?.salesPrice ?? 0),
      recSalesPrice: input.recSalesPrice !== undefined ? money(input.recSalesPrice) : (stored?.recSalesPrice ?? 0),
      offerPrice:
        input.offerPrice === undefined
          ? (stored?.offerPrice ?? null)
          : input.offerPrice === null
            ? null
            : money(input.offerPrice),
      b2cOfferPrice:
        input.b2cOfferPrice === undefined
          ? (stored?.b2cOfferPrice ?? null)
          : input.b2cOfferPrice === null
            ? null
            : money(input.b2cOfferPrice),
    });
  }
  return [...next.values()];
}

function mergeCostPrices(
  current: VariantCostPrice[],
  variantId: number,
  sent: { costPriceSetId: number; costPrice: number }[],
): VariantCostPrice[] {
  const next = new Map(current.map((c) => [c.costPriceSetId, c]));
  for (const { costPriceSetId, costPrice } of sent) next.set(costPriceSetId, { variantId, costPriceSetId, costPrice });
  return [...next.values()];
}

/** A variant with the item's fields applied; drop ids and cost price set ids are already resolved. */
export function mergeVariant(
  current: VariantRecord,
  item: VariantSyncItem,
  resolved: { dropIds: number[]; costPrices: { costPriceSetId: number; costPrice: number }[] },
): VariantRecord {
  const stored = current.variant;
  const variant: Variant = {
    ...stored,
    ean: pick(item.ean, stored.ean),
    attributes: item.attributes !== undefined ? { ...stored.attributes, ...item.attributes } : stored.attributes,
    archived: pick(item.archived, stored.archived),
    b2cAvailable: pick(item.b2cAvailable, stored.b2cAvailable),
    makeToOrderB2b: pick(item.makeToOrderB2b, stored.makeToOrderB2b),
    makeToOrderB2c: pick(item.makeToOrderB2c, stored.makeToOrderB2c),
    noos: pick(item.noos, stored.noos),
    weight: item.weight === undefined ? stored.weight : item.weight === null ? null : parseWeight(item.weight),
    weightType: pick(item.weightType, stored.weightType),
    releaseDate: pick(item.releaseDate, stored.releaseDate),
    meta: mergeMeta(stored.meta, item.meta),
    dropIds: item.drops ? syncIds(stored.dropIds, resolved.dropIds, item.drops.mode) : stored.dropIds,
  };
  return {
    variant,
    prices: mergePrices(current.prices, stored.id, item.prices),
    costPrices:
      resolved.costPrices.length > 0
        ? mergeCostPrices(current.costPrices, stored.id, resolved.costPrices)
        : current.costPrices,
  };
}

const byNumber = (a: number, b: number) => a - b;

/** A record in a form where the order of sets (ids, tags, prices, links) does not count, and update times are ignored. */
function comparableProduct(
  product: Product,
  suppliers: ProductSupplierLink[],
  translations: ProductTranslation[],
): unknown {
  return {
    product: {
      ...product,
      updatedAt: '',
      categoryIds: [...product.categoryIds].sort(byNumber),
      tags: [...product.tags].sort(),
    },
    suppliers: [...suppliers].sort((a, b) => a.supplierId - b.supplierId),
    translations: [...translations].sort((a, b) => a.localeId - b.localeId),
  };
}

function comparableVariant(record: VariantRecord): unknown {
  return {
    variant: { ...record.variant, updatedAt: '', dropIds: [...record.variant.dropIds].sort(byNumber) },
    prices: [...record.prices].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0)),
    costPrices: [...record.costPrices].sort((a, b) => a.costPriceSetId - b.costPriceSetId),
  };
}

/** Whether the product row, its supplier links or translations differ (variants aside). */
export function productChanged(
  before: ProductAggregate,
  after: Pick<ProductAggregate, 'product' | 'suppliers' | 'translations'>,
): boolean {
  return !sameData(
    comparableProduct(before.product, before.suppliers, before.translations),
    comparableProduct(after.product, after.suppliers, after.translations),
  );
}

/** Whether the variant row, its prices or cost prices differ. */
export function variantChanged(before: VariantRecord, after: VariantRecord): boolean {
  return !sameData(comparableVariant(before), comparableVariant(after));
}

/** What applying one product item gives: the aggregate to save (when anything changed) and per-SKU results. */
export interface MergedItem {
  productId: number;
  /** Null when nothing of the product or its variants changed. */
  toSave: ProductAggregate | null;
  action: 'created' | 'updated' | 'unchanged';
  variants: Map<string, { id: number | null; action: 'created' | 'updated' | 'unchanged' | 'deleted' | 'absent' }>;
  /** Stored variants the item deletes. */
  deletedVariantIds: number[];
  /** The variants' image requests, by variant id. */
  images: { variantId: number; images: NonNullable<VariantSyncItem['images']> }[];
}

/** The ids of what an item refers to, resolved after planned records were created. */
export interface ItemIds {
  brandId: number;
  now: string;
  /** A fresh id for a new product / variant (drawn for the whole request beforehand). */
  nextProductId(): number;
  nextVariantId(): number;
  categoryIds: number[] | undefined;
  /** The links sent, when the item sent suppliers (the product id is filled in here). */
  suppliers: Omit<ProductSupplierLink, 'productId'>[] | undefined;
  translations:
    | {
        localeId: number;
        name: string;
        description?: string | null;
        metaTitle?: string | null;
        metaDescription?: string | null;
      }[]
    | undefined;
  variant(item: VariantSyncItem): { dropIds: number[]; costPrices: { costPriceSetId: number; costPrice: number }[] };
}

/**
 * Applies one checked product item to its stored aggregate (or a new one): the product row,
 * supplier links and translations, and each variant sent. Only changed variants go into the
 * aggregate to save (`saveAll` leaves the others alone), and update times move only for
 * records whose data changed.
 */
export function mergeItem(item: ProductSyncItem, current: ProductAggregate | undefined, ids: ItemIds): MergedItem {
  const productId = current?.product.id ?? ids.nextProductId();
  const product = mergeProduct(
    current?.product ?? newProduct(productId, ids.brandId, item.itemNumber, ids.now),
    item,
    ids.categoryIds,
  );
  const suppliers =
    item.suppliers && ids.suppliers
      ? mergeSupplierLinks(
          current?.suppliers ?? [],
          ids.suppliers.map((link) => ({ ...link, productId })),
          item.suppliers.mode,
        )
      : (current?.suppliers ?? []);
  const translations = ids.translations
    ? mergeTranslations(current?.translations ?? [], productId, ids.translations)
    : (current?.translations ?? []);

  const variants: MergedItem['variants'] = new Map();
  const changedVariants: VariantRecord[] = [];
  const deletedVariantIds: number[] = [];
  const images: MergedItem['images'] = [];
  let position = Math.max(0, ...(current?.variants ?? []).map((record) => record.variant.position));
  for (const variant of item.variants ?? []) {
    const stored = current?.variants.find((record) => record.variant.sku === variant.sku);
    if (variant.delete) {
      if (stored) deletedVariantIds.push(stored.variant.id);
      variants.set(variant.sku, { id: stored?.variant.id ?? null, action: stored ? 'deleted' : 'absent' });
      continue;
    }
    const before = stored ?? newVariant(ids.nextVariantId(), ids.brandId, productId, variant.sku, ++position, ids.now);
    const after = mergeVariant(before, variant, ids.variant(variant));
    const changed = !stored || variantChanged(stored, after);
    if (changed) changedVariants.push({ ...after, variant: { ...after.variant, updatedAt: ids.now } });
    variants.set(variant.sku, {
      id: before.variant.id,
      action: !stored ? 'created' : changed ? 'updated' : 'unchanged',
    });
    if (variant.images?.length) images.push({ variantId: before.variant.id, images: variant.images });
  }

  const changed =
    !current ||
    changedVariants.length > 0 ||
    deletedVariantIds.length > 0 ||
    productChanged(current, { product, suppliers, translations });
  return {
    productId,
    toSave: changed
      ? { product: { ...product, updatedAt: ids.now }, variants: changedVariants, suppliers, translations }
      : null,
    action: !current ? 'created' : changed ? 'updated' : 'unchanged',
    variants,
    deletedVariantIds,
    images,
  };
}
