import { isCurrencyCode } from '../../shared/codes';
import { MONEY_SCALE, parseDecimal } from '../../shared/decimal';
import { DomainError, ViolationList, pointerToPath } from '../../shared/errors';
import { Repositories } from '../../shared/unit-of-work.ports';
import { ProductAggregate, VariantRecord } from '../catalog.entities';
import { LEGACY_ERROR_CODES, legacyError } from './legacy-error';
import { LegacyProductChanges, LegacyVariantChanges, NormalizedPrice, NormalizedVariant } from './legacy-product.input';

/*
 * The rules of the legacy product and variant writes: the checks of a command's own fields (a
 * variant comes back normalized), and the checks against stored data with the older interface's
 * error codes (item numbers, SKUs, attribute names, references).
 */

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
 * Validation of the input.
 * ---------------------------------------------------------------------------------------------- */

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

/** The variant of the product, or `not_found` (a variant of another product is the same as a missing one). */
export function variantOf(aggregate: ProductAggregate, variantId: number): VariantRecord {
  const record = aggregate.variants.find((v) => v.variant.id === variantId);
  if (!record) throw DomainError.notFound('variant', variantId);
  return record;
}

/** The brand's base currency. */
export async function baseCurrencyOf(repos: Pick<Repositories, 'brands'>, brandId: number): Promise<string> {
  const brand = await repos.brands.findById(brandId);
  if (!brand) throw DomainError.notFound('brand', brandId);
  return brand.currency;
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

/** Whether two attribute objects have the same names (values may differ). */
function sameAttributeNames(a: Record<string, string>, b: Record<string, string>): boolean {
  const left = Object.keys(a).sort();
  const right = Object.keys(b).sort();
  return left.length === right.length && left.every((name, i) => name === right[i]);
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
