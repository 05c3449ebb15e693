import { applyStockMovements } from '../../inventory/apply-stock-movements';
import { ensureDefaultLocation } from '../../inventory/ensure-default-location';
import { InventoryLocation, NewStockMovement } from '../../inventory/inventory.entities';
import { inventoryLocationListDefinition } from '../catalog.list-definitions';
import { validateListQuery } from '../../listing/validate-list-query';
import { Clock } from '../../shared/clock.ports';
import { isCurrencyCode } from '../../shared/codes';
import { MONEY_SCALE, parseDecimal } from '../../shared/decimal';
import { DomainError, ViolationList, pointerToPath } from '../../shared/errors';
import { Repositories } from '../../shared/unit-of-work.ports';
import {
  Category,
  Collection,
  Meta,
  Product,
  ProductAggregate,
  Subbrand,
  Variant,
  VariantPrice,
  VariantRecord,
} from '../catalog.entities';
import { LEGACY_ERROR_CODES, legacyError, sameAttributeNames } from './legacy.helpers';
import { settleAll } from '../../shared/settle-all';

/** What the legacy product reads use: the product and the relations its view shows. */
export type LegacyProductReadRepositories = Pick<
  Repositories,
  'categories' | 'collections' | 'inventoryLocations' | 'products' | 'stock' | 'subbrands'
>;

/**
 * What the legacy product and variant writes use: the reads, the brand (its base currency), ids,
 * and the outbox with the webhooks (`product.*` events).
 */
export type LegacyProductWriteRepositories = Pick<
  Repositories,
  | 'brands'
  | 'categories'
  | 'collections'
  | 'events'
  | 'ids'
  | 'inventoryLocations'
  | 'products'
  | 'stock'
  | 'subbrands'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/* ------------------------------------------------------------------------------------------------
 * Commands: what the older interface's product and variant bodies carry, in the core's words.
 * ---------------------------------------------------------------------------------------------- */

/** Prices of a variant in one currency, as decimals (at most 2 decimals); fields not sent keep their value (new: 0, 0, null). */
export interface LegacyPriceInput {
  salesPrice?: number | string;
  recSalesPrice?: number | string;
  offerPrice?: number | string | null;
}

/** Sets the in-stock quantity at one location. `delivery` (a date or null) is recorded in the stock ledger's note. */
export interface LegacyStockInput {
  quantity: number;
  delivery?: string | null;
}

/**
 * A variant as the older interface sends it: SKU, EAN, attributes, picture, prices per currency and
 * stock per stock type.
 */
export interface LegacyVariantInput {
  sku: string;
  /** Digits; the older form sends an integer. */
  ean?: string | number | null;
  /** At least one attribute; every variant of a product has the same names. */
  attributes: Record<string, string>;
  picture?: string | null;
  /** Keyed by ISO 4217 currency code; a new variant needs a price in the brand's base currency. */
  prices?: Record<string, LegacyPriceInput>;
  /**
   * Keyed by stock type: `stock` (or `default`) is the brand's default inventory location, any
   * other key the name of one of the brand's inventory locations (exact spelling).
   */
  inventory?: Record<string, LegacyStockInput>;
}

/** `PUT …/variants/{id}`: any of the fields; attribute values may change, names may not. */
export type LegacyVariantChanges = Partial<LegacyVariantInput>;

/** A product's root fields as the older interface sends them. */
export interface LegacyProductFields {
  itemNumber: string;
  name: string;
  description?: string | null;
  subbrandId?: number | null;
  collectionId?: number | null;
  /** The primary image URL (kept as text; see `LEGACY_IMAGE_META_KEY`). */
  image?: string | null;
  images?: string[];
  active?: boolean;
  /** How many pieces make a colli; the older form has one size (see `applyLegacyColli`). */
  colli?: number | null;
}

/** `PUT /api/products/{id}`: root fields only; fields not sent keep their value. */
export type LegacyProductChanges = Partial<LegacyProductFields>;

/* ------------------------------------------------------------------------------------------------
 * Mapping between the older form and the catalog.
 * ---------------------------------------------------------------------------------------------- */

/**
 * The catalog keeps downloaded images (`ProductImage`), not bare URLs; the older form's `image`
 * and `images` are URL strings an integration keeps for itself. They live in the product's meta
 * under these reserved keys, so no schema change is needed and they travel with the product.
 */
export const LEGACY_IMAGE_META_KEY = '_legacy_image';
export const LEGACY_IMAGES_META_KEY = '_legacy_images';

/** The older interface's primary image URL of a product (kept in its meta), or null. */
export function legacyImageOf(product: Product): string | null {
  const value = product.meta[LEGACY_IMAGE_META_KEY];
  return typeof value === 'string' ? value : null;
}

/** The older interface's further image URLs of a product (kept in its meta). */
export function legacyImagesOf(product: Product): string[] {
  const value = product.meta[LEGACY_IMAGES_META_KEY];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Meta with the older form's images set; a null image or an empty list removes the key. */
export function withLegacyImages(meta: Meta, image: string | null | undefined, images: string[] | undefined): Meta {
  const next: Meta = { ...meta };
  if (image !== undefined) {
    if (image === null) delete next[LEGACY_IMAGE_META_KEY];
    else next[LEGACY_IMAGE_META_KEY] = image;
  }
  if (images !== undefined) {
    if (images.length === 0) delete next[LEGACY_IMAGES_META_KEY];
    else next[LEGACY_IMAGES_META_KEY] = images;
  }
  return next;
}

/** The older form's single `colli`: the product's first colli size, or null when it has none. */
export function legacyColliOf(product: Product): number | null {
  return product.colli[0] ?? null;
}

/**
 * Writes the older form's `colli` into the catalog's list of sizes: a number becomes the first
 * size (other sizes a sync set stay after it), null removes every size.
 */
export function applyLegacyColli(colli: number[], value: number | null): number[] {
  return value === null ? [] : [value, ...colli.filter((size) => size !== value)];
}

/** The older form shows an EAN as an integer: digits only, or null (leading zeros are lost). */
export function legacyEanOf(variant: Variant): number | null {
  if (variant.ean === null || !/^\d{1,15}$/.test(variant.ean)) return null;
  return Number(variant.ean);
}

/** Variants in their order within the product. */
export function variantsInOrder(aggregate: ProductAggregate): VariantRecord[] {
  return [...aggregate.variants].sort((a, b) => a.variant.position - b.variant.position || a.variant.id - b.variant.id);
}

/** Names of the product's attributes (those of its first variant; all variants share them). */
export function productAttributes(aggregate: ProductAggregate): Record<string, string> | null {
  return variantsInOrder(aggregate)[0]?.variant.attributes ?? null;
}

/* ------------------------------------------------------------------------------------------------
 * Validation of variant input.
 * ---------------------------------------------------------------------------------------------- */

export interface NormalizedPrice {
  currency: string;
  salesPrice?: number;
  recSalesPrice?: number;
  offerPrice?: number | null;
}

export interface NormalizedStock {
  key: string;
  quantity: number;
  delivery: string | null;
  pointer: string;
}

/** A variant's input after checking: trimmed, amounts in minor units; undefined fields were not sent. */
export interface NormalizedVariant {
  pointer: string;
  sku?: string;
  ean?: string | null;
  attributes?: Record<string, string>;
  picture?: string | null;
  prices?: NormalizedPrice[];
  inventory: NormalizedStock[];
}

function isRealDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function normalizeEan(
  value: string | number | null,
  pointer: string,
  violations: ViolationList,
): string | null | undefined {
  if (value === null) return null;
  const text =
    typeof value === 'number' ? (Number.isSafeInteger(value) && value >= 0 ? String(value) : '') : value.trim();
  if (!/^\d{1,14}$/.test(text)) {
    violations.add(pointer, 'must be an EAN/GTIN of up to 14 digits');
    return undefined;
  }
  return text;
}

function parseAmount(value: unknown, pointer: string, violations: ViolationList): number | undefined {
  const amount = parseDecimal(value, MONEY_SCALE);
  if (amount === null || amount < 0) {
    violations.add(pointer, `must be a non-negative amount with at most ${MONEY_SCALE} decimals`);
    return undefined;
  }
  return amount;
}

/**
 * Checks one variant of a request (`create`: sku and attributes are required) and returns it
 * normalized. Problems are collected in `violations`, pointing below `pointer`.
 */
export function normalizeVariant(
  input: LegacyVariantChanges,
  pointer: string,
  violations: ViolationList,
  mode: 'create' | 'update',
): NormalizedVariant {
  const result: NormalizedVariant = { pointer, inventory: [] };
  if (input.sku !== undefined || mode === 'create') {
    const sku = (input.sku ?? '').trim();
    if (sku === '') violations.add(`${pointer}/sku`, 'must not be empty');
    result.sku = sku;
  }
  if (input.ean !== undefined) {
    const ean = normalizeEan(input.ean, `${pointer}/ean`, violations);
    if (ean !== undefined) result.ean = ean;
  }
  if (input.picture !== undefined) {
    if (input.picture !== null && input.picture.trim() === '')
      violations.add(`${pointer}/picture`, 'must not be empty (send null to remove it)');
    result.picture = input.picture === null ? null : input.picture.trim();
  }
  if (input.attributes !== undefined || mode === 'create') {
    const entries = Object.entries(input.attributes ?? {});
    if (entries.length === 0)
      violations.add(`${pointer}/attributes`, 'must have at least one attribute (such as color or size)');
    const attributes: Record<string, string> = {};
    for (const [name, value] of entries) {
      const trimmedName = name.trim();
      if (trimmedName === '') violations.add(`${pointer}/attributes`, 'must not have an attribute with an empty name');
      else if (attributes[trimmedName] !== undefined)
        violations.add(`${pointer}/attributes/${name}`, `repeats the attribute ${trimmedName}`);
      else if (value.trim() === '') violations.add(`${pointer}/attributes/${name}`, 'must not be empty');
      else attributes[trimmedName] = value.trim();
    }
    result.attributes = attributes;
  }
  if (input.prices !== undefined) {
    result.prices = Object.entries(input.prices).flatMap(([currency, price]): NormalizedPrice[] => {
      const at = `${pointer}/prices/${currency}`;
      if (!isCurrencyCode(currency)) {
        violations.add(at, 'must be keyed by a 3-letter ISO 4217 currency code such as EUR');
        return [];
      }
      const normalized: NormalizedPrice = { currency };
      if (price.salesPrice !== undefined) {
        const amount = parseAmount(price.salesPrice, `${at}/sales_price`, violations);
        if (amount !== undefined) normalized.salesPrice = amount;
      }
      if (price.recSalesPrice !== undefined) {
        const amount = parseAmount(price.recSalesPrice, `${at}/rec_sales_price`, violations);
        if (amount !== undefined) normalized.recSalesPrice = amount;
      }
      if (price.offerPrice !== undefined) {
        if (price.offerPrice === null) normalized.offerPrice = null;
        else {
          const amount = parseAmount(price.offerPrice, `${at}/offer_price`, violations);
          if (amount !== undefined) normalized.offerPrice = amount;
        }
      }
      return [normalized];
    });
  }
  for (const [key, stock] of Object.entries(input.inventory ?? {})) {
    const at = `${pointer}/inventory/${key}`;
    if (!Number.isSafeInteger(stock.quantity) || stock.quantity < 0)
      violations.add(`${at}/quantity`, 'must be a whole number of at least 0');
    const delivery = stock.delivery ?? null;
    if (delivery !== null && !isRealDate(delivery))
      violations.add(`${at}/delivery`, 'must be a date (YYYY-MM-DD) or null');
    result.inventory.push({ key, quantity: stock.quantity, delivery, pointer: at });
  }
  return result;
}

/** Refuses a variant without a price in the brand's base currency (plain validation error). */
export function requireBaseCurrency(
  prices: { currency: string }[],
  baseCurrency: string,
  pointer: string,
  violations: ViolationList,
): void {
  if (!prices.some((p) => p.currency === baseCurrency)) {
    violations.add(`${pointer}/prices`, `must include a price in the brand's base currency ${baseCurrency}`);
  }
}

/** The brand's base currency. */
export async function baseCurrencyOf(repos: Pick<Repositories, 'brands'>, brandId: number): Promise<string> {
  const brand = await repos.brands.findById(brandId);
  if (!brand) throw DomainError.notFound('brand', brandId);
  return brand.currency;
}

/** Prices after applying the sent currencies over the stored ones; currencies not sent stay. */
export function mergePrices(
  variantId: number,
  current: VariantPrice[],
  sent: NormalizedPrice[] | undefined,
): VariantPrice[] {
  const byCurrency = new Map(current.map((p) => [p.currency, { ...p }]));
  for (const price of sent ?? []) {
    const base = byCurrency.get(price.currency) ?? {
      variantId,
      currency: price.currency,
      salesPrice: 0,
      recSalesPrice: 0,
      offerPrice: null,
      b2cOfferPrice: null,
    };
    byCurrency.set(price.currency, {
      ...base,
      salesPrice: price.salesPrice ?? base.salesPrice,
      recSalesPrice: price.recSalesPrice ?? base.recSalesPrice,
      offerPrice: price.offerPrice !== undefined ? price.offerPrice : base.offerPrice,
    });
  }
  return [...byCurrency.values()].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
}

/** A new variant of the older interface: sellable everywhere, no overrides of its product. */
export function newVariant(
  input: { id: number; brandId: number; productId: number; position: number; now: string },
  v: NormalizedVariant,
): Variant {
  return {
    id: input.id,
    brandId: input.brandId,
    productId: input.productId,
    sku: v.sku ?? '',
    ean: v.ean ?? null,
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
    picture: v.picture ?? null,
    position: input.position,
    dropIds: [],
    createdAt: input.now,
    updatedAt: input.now,
  };
}

/* ------------------------------------------------------------------------------------------------
 * Checks against stored data.
 * ---------------------------------------------------------------------------------------------- */

/** The product with its variants, or `not_found` (another brand's product is the same as a missing one). */
export async function findProduct(
  repos: Pick<Repositories, 'products'>,
  brandId: number,
  id: number,
): Promise<ProductAggregate> {
  const [aggregate] = await repos.products.findByIds(brandId, [id]);
  if (!aggregate) throw DomainError.notFound('product', id);
  return aggregate;
}

/** Code 1000001 when the variants do not all have the attribute names of `expected` (or of the first one). */
export function ensureSameAttributeNames(variants: NormalizedVariant[], expected: Record<string, string> | null): void {
  const reference = expected ?? variants.find((v) => v.attributes !== undefined)?.attributes ?? null;
  if (reference === null) return;
  const names = Object.keys(reference).sort().join(', ');
  const differing = variants.filter((v) => v.attributes !== undefined && !sameAttributeNames(v.attributes, reference));
  if (differing.length > 0) {
    throw legacyError(
      'validation_failed',
      LEGACY_ERROR_CODES.attributesDiffer,
      differing.map((v) => ({
        pointer: `${v.pointer}/attributes`,
        detail: `${pointerToPath(`${v.pointer}/attributes`)} has ${Object.keys(v.attributes ?? {})
          .sort()
          .join(', ')}; all variants of a product must have the same attributes (${names})`,
      })),
    );
  }
}

/** Code 1000002 when another product of the brand has the item number. */
export async function ensureItemNumberFree(
  repos: Pick<Repositories, 'products'>,
  brandId: number,
  itemNumber: string,
  self: number | null,
  pointer: string,
): Promise<void> {
  const taken = (await repos.products.findByItemNumbers(brandId, [itemNumber])).find((a) => a.product.id !== self);
  if (taken) {
    throw legacyError('duplicate', LEGACY_ERROR_CODES.itemNumberTaken, [
      {
        pointer,
        detail: `${pointerToPath(pointer)}: product ${taken.product.id} already has the item number ${itemNumber}`,
      },
    ]);
  }
}

/** Code 1000003 when a SKU is used twice in the request or by another variant of the brand. */
export async function ensureSkusFree(
  repos: Pick<Repositories, 'products'>,
  brandId: number,
  variants: NormalizedVariant[],
  self: number | null,
): Promise<void> {
  const sent = variants.filter((v): v is NormalizedVariant & { sku: string } => v.sku !== undefined && v.sku !== '');
  const seen = new Map<string, string>();
  const problems = sent.flatMap((v) => {
    const earlier = seen.get(v.sku);
    if (earlier === undefined) {
      seen.set(v.sku, v.pointer);
      return [];
    }
    return [
      {
        pointer: `${v.pointer}/sku`,
        detail: `${pointerToPath(`${v.pointer}/sku`)} repeats the SKU ${v.sku} of ${pointerToPath(earlier)}`,
      },
    ];
  });
  if (problems.length === 0 && sent.length > 0) {
    const existing = await repos.products.findVariantsBySkus(brandId, [...seen.keys()]);
    for (const ref of existing) {
      if (ref.variant.id === self) continue;
      const v = sent.find((s) => s.sku === ref.variant.sku);
      if (v)
        problems.push({
          pointer: `${v.pointer}/sku`,
          detail: `${pointerToPath(`${v.pointer}/sku`)}: a variant with the SKU ${v.sku} already exists (variant ${ref.variant.id} of product ${ref.itemNumber})`,
        });
    }
  }
  if (problems.length > 0) throw legacyError('duplicate', LEGACY_ERROR_CODES.skuTaken, problems);
}

/** Checks the root fields of a product command (`create`: item number and name are required). */
export function checkProductFields(
  input: LegacyProductChanges,
  violations: ViolationList,
  mode: 'create' | 'update',
): void {
  if ((input.itemNumber !== undefined || mode === 'create') && (input.itemNumber ?? '').trim() === '')
    violations.add('/product/item_number', 'must not be empty');
  if ((input.name !== undefined || mode === 'create') && (input.name ?? '').trim() === '')
    violations.add('/product/name', 'must not be empty');
  if (input.colli !== undefined && input.colli !== null && (!Number.isSafeInteger(input.colli) || input.colli < 1)) {
    violations.add('/product/colli', 'must be a whole number of at least 1, or null');
  }
  if (input.image !== undefined && input.image !== null && input.image.trim() === '')
    violations.add('/product/image', 'must not be empty (send null to remove it)');
  (input.images ?? []).forEach((url, i) => {
    if (url.trim() === '') violations.add(`/product/images/${i}`, 'must not be empty');
  });
}

/** Sub-brand and collection must be the brand's own. */
export async function checkProductReferences(
  repos: Pick<Repositories, 'collections' | 'subbrands'>,
  brandId: number,
  input: LegacyProductChanges,
  violations: ViolationList,
): Promise<void> {
  if (input.subbrandId !== undefined && input.subbrandId !== null) {
    if ((await repos.subbrands.findByIds(brandId, [input.subbrandId])).length === 0)
      violations.add('/product/subbrand_id', `names sub-brand ${input.subbrandId}, which does not exist`);
  }
  if (input.collectionId !== undefined && input.collectionId !== null) {
    if ((await repos.collections.findByIds(brandId, [input.collectionId])).length === 0)
      violations.add('/product/collection_id', `names collection ${input.collectionId}, which does not exist`);
  }
}

/** The product's root fields after applying a command; fields not sent keep their value. */
export function applyProductFields(product: Product, input: LegacyProductChanges): Product {
  return {
    ...product,
    itemNumber: input.itemNumber !== undefined ? input.itemNumber.trim() : product.itemNumber,
    name: input.name !== undefined ? input.name.trim() : product.name,
    description: input.description !== undefined ? input.description : product.description,
    subbrandId: input.subbrandId !== undefined ? input.subbrandId : product.subbrandId,
    collectionId: input.collectionId !== undefined ? input.collectionId : product.collectionId,
    active: input.active ?? product.active,
    colli: input.colli !== undefined ? applyLegacyColli(product.colli, input.colli) : product.colli,
    meta: withLegacyImages(
      product.meta,
      input.image === undefined ? undefined : input.image === null ? null : input.image.trim(),
      input.images?.map((u) => u.trim()),
    ),
  };
}

/* ------------------------------------------------------------------------------------------------
 * Inventory keyed by stock type.
 * ---------------------------------------------------------------------------------------------- */

/** Keys naming the brand's default inventory location (created on first use). */
export const DEFAULT_STOCK_KEYS: readonly string[] = ['stock', 'default'];

/** The key a location's stock is shown under: `stock` for the default location, else its name. */
export function stockKeyOf(location: InventoryLocation): string {
  return location.isDefault ? 'stock' : location.name;
}

async function locationsByName(
  repos: Pick<Repositories, 'inventoryLocations'>,
  brandId: number,
  names: string[],
): Promise<InventoryLocation[]> {
  const found: InventoryLocation[] = [];
  for (let i = 0; i < names.length; i += 100) {
    const chunk = names.slice(i, i + 100);
    const query = validateListQuery(inventoryLocationListDefinition, {
      filter_groups: [{ filters: [{ key: 'name', operator: 'in', value: chunk }] }],
      limit: 100,
    });
    found.push(...(await repos.inventoryLocations.list(brandId, query)).rows);
  }
  return found;
}

/**
 * Resolves the stock-type keys of the variants to inventory locations (creating the default
 * location if `stock` is used before the brand has one). Unknown keys and two keys of one
 * variant naming the same location are violations.
 */
export async function resolveStockLocations(
  tx: Pick<Repositories, 'ids' | 'inventoryLocations'>,
  clock: Clock,
  brandId: number,
  variants: NormalizedVariant[],
  violations: ViolationList,
): Promise<Map<string, InventoryLocation>> {
  const keys = [...new Set(variants.flatMap((v) => v.inventory.map((s) => s.key)))];
  const resolved = new Map<string, InventoryLocation>();
  if (keys.some((k) => DEFAULT_STOCK_KEYS.includes(k))) {
    const location = await ensureDefaultLocation(tx, clock, brandId);
    for (const key of DEFAULT_STOCK_KEYS) resolved.set(key, location);
  }
  const named = keys.filter((k) => !DEFAULT_STOCK_KEYS.includes(k));
  if (named.length > 0)
    for (const location of await locationsByName(tx, brandId, named)) resolved.set(location.name, location);
  for (const v of variants) {
    const used = new Map<number, string>();
    for (const stock of v.inventory) {
      const location = resolved.get(stock.key);
      if (!location) {
        violations.add(
          stock.pointer,
          `names no inventory location: use stock (the default location) or the name of one of the brand's inventory locations`,
        );
        continue;
      }
      const earlier = used.get(location.id);
      if (earlier !== undefined) violations.add(stock.pointer, `names the same inventory location as ${earlier}`);
      else used.set(location.id, stock.key);
    }
  }
  return resolved;
}

/** Sets the in-stock quantities (reason `api_quantity`): one ledger row per balance that changes. */
export async function applyInventory(
  tx: Pick<Repositories, 'events' | 'ids' | 'stock' | 'webhookDeliveries' | 'transaction' | 'webhookEndpoints'>,
  input: { brandId: number; userId: number | null; at: string },
  entries: { variantId: number; stock: NormalizedStock; location: InventoryLocation }[],
): Promise<void> {
  if (entries.length === 0) return;
  const balances = await tx.stock.balances(input.brandId, [...new Set(entries.map((e) => e.variantId))]);
  const movements: NewStockMovement[] = entries.flatMap(({ variantId, stock, location }) => {
    const current = balances.find((b) => b.variantId === variantId && b.locationId === location.id)?.inStock ?? 0;
    const delta = stock.quantity - current;
    if (delta === 0) return [];
    return [
      {
        brandId: input.brandId,
        variantId,
        locationId: location.id,
        inStockDelta: delta,
        reservedDelta: 0,
        reason: 'api_quantity',
        note: stock.delivery !== null ? `delivery ${stock.delivery}` : null,
        documentType: null,
        documentId: null,
        userId: input.userId,
      },
    ];
  });
  if (movements.length > 0) await applyStockMovements(tx, input.brandId, movements, input.at);
}

/* ------------------------------------------------------------------------------------------------
 * Related records of products, for the includes and the inventory view.
 * ---------------------------------------------------------------------------------------------- */

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

/** The variant of the product, or `not_found` (a variant of another product is the same as a missing one). */
export function variantOf(aggregate: ProductAggregate, variantId: number): VariantRecord {
  const record = aggregate.variants.find((v) => v.variant.id === variantId);
  if (!record) throw DomainError.notFound('variant', variantId);
  return record;
}
