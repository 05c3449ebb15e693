import { isCurrencyCode } from '../shared/codes';
import { MONEY_SCALE, parseDecimal } from '../shared/decimal';
import { ViolationList } from '../shared/errors';
import { Meta, WeightUnit } from './catalog.entities';
import { DecimalInput, ProductSyncItem, VariantSyncItem } from './product-sync.input';

/**
 * Checks of a product sync item's own fields (formats, ranges, duplicates inside one item) and
 * the parsing that goes with them. Nothing here reads storage; references to other records are
 * resolved in `product-sync-references.ts`.
 */

/** Weights are stored in thousandths of their unit (1.5 kg → 1500). */
export const WEIGHT_SCALE = 3;
export const WEIGHT_UNITS: readonly WeightUnit[] = ['g', 'kg'];

/**
 * A decimal ≥ 0 as an integer of `scale` decimals, or null. A JSON number takes a fast path: it
 * has at most `scale` decimals exactly when the scaled, rounded integer divided back is the same
 * double (division by a power of ten is correctly rounded, and both are the double nearest to
 * the decimal); anything else goes through the exact text parser, which also gives the verdict.
 */
function parseNonNegative(value: DecimalInput, scale: number): number | null {
  if (typeof value === 'number' && value >= 0 && value < 1e9) {
    const factor = 10 ** scale;
    const scaled = Math.round(value * factor);
    if (scaled / factor === value) return scaled;
  }
  const parsed = parseDecimal(value, scale);
  return parsed === null || parsed < 0 ? null : parsed;
}

/** A weight as stored (thousandths), or null when it is not a decimal ≥ 0 with at most 3 decimals. */
export function parseWeight(value: DecimalInput): number | null {
  return parseNonNegative(value, WEIGHT_SCALE);
}

/** An amount of money in minor units, or null when it is not a decimal ≥ 0 with at most 2 decimals. */
export function parseMoney(value: DecimalInput): number | null {
  return parseNonNegative(value, MONEY_SCALE);
}

/** Whether `value` is a calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Applies a partial meta update: sent keys replace, keys not sent stay, keys sent as null are removed. */
export function mergeMeta(current: Meta, patch: Meta | undefined): Meta {
  if (patch === undefined) return current;
  const next: Meta = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** Tags as a set: trimmed, each once, in the order first sent. */
export function normalizeTags(tags: string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()))];
}

const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function checkWeight(value: DecimalInput | null | undefined, pointer: string, violations: ViolationList): void {
  if (value === undefined || value === null) return;
  if (parseWeight(value) === null) violations.add(pointer, 'must be a number of at least 0 with at most 3 decimals');
}

function checkWeightType(value: string | null | undefined, pointer: string, violations: ViolationList): void {
  if (value === undefined || value === null) return;
  if (!WEIGHT_UNITS.includes(value as WeightUnit)) violations.add(pointer, `must be one of ${WEIGHT_UNITS.join(', ')}`);
}

function checkDate(value: string | null | undefined, pointer: string, violations: ViolationList): void {
  if (value === undefined || value === null) return;
  if (!isIsoDate(value)) violations.add(pointer, 'must be a date written YYYY-MM-DD');
}

function checkMeta(value: unknown, pointer: string, violations: ViolationList): void {
  if (value !== undefined && !isPlainObject(value)) violations.add(pointer, 'must be an object of custom fields');
}

/** The product's own fields: what a DTO cannot say alone (calendar dates, decimals, duplicates). */
export function checkProductFields(item: ProductSyncItem, pointer: string, violations: ViolationList): void {
  if (item.name !== undefined && item.name.trim() === '') violations.add(`${pointer}/name`, 'must not be empty');
  checkMeta(item.meta, `${pointer}/meta`, violations);
  checkWeight(item.weight, `${pointer}/weight`, violations);
  checkWeightType(item.weightType, `${pointer}/weight_type`, violations);
  checkDate(item.releaseDate, `${pointer}/release_date`, violations);
  if (
    item.minOrderQuantity !== undefined &&
    item.minOrderQuantity !== null &&
    (!isInteger(item.minOrderQuantity) || item.minOrderQuantity < 1)
  ) {
    violations.add(`${pointer}/min_order_quantity`, 'must be a whole number of at least 1');
  }
  if (item.customSort !== undefined && item.customSort !== null && !isInteger(item.customSort))
    violations.add(`${pointer}/custom_sort`, 'must be a whole number');
  item.colli?.forEach((size, k) => {
    if (!isInteger(size) || size < 1) violations.add(`${pointer}/colli/${k}`, 'must be a whole number of at least 1');
  });
  item.tags?.forEach((tag, k) => {
    if (tag.trim() === '') violations.add(`${pointer}/tags/${k}`, 'must not be empty');
  });
  item.categories?.categories.forEach((category, k) => {
    if (category.topCategory.trim() === '')
      violations.add(`${pointer}/categories/${k}/top_category`, 'must not be empty');
  });
  if (item.suppliers) {
    const seen = new Map<string, number>();
    let primary: number | null = null;
    item.suppliers.suppliers.forEach((link, k) => {
      const at = `${pointer}/suppliers/${k}`;
      const earlier = seen.get(link.supplierNumber);
      if (earlier !== undefined)
        violations.add(`${at}/supplier_number`, `repeats suppliers[${earlier}]; link each supplier once`);
      else seen.set(link.supplierNumber, k);
      if (link.primary) {
        if (primary !== null)
          violations.add(`${at}/primary`, `is also set on suppliers[${primary}]; a product has one primary supplier`);
        else primary = k;
      }
      for (const [field, value] of [
        ['lead_time_from', link.leadTimeFrom],
        ['lead_time_to', link.leadTimeTo],
      ] as const) {
        if (value !== undefined && value !== null && (!isInteger(value) || value < 0))
          violations.add(`${at}/${field}`, 'must be a whole number of at least 0');
      }
      if (isInteger(link.leadTimeFrom) && isInteger(link.leadTimeTo) && link.leadTimeFrom > link.leadTimeTo) {
        violations.add(`${at}/lead_time_to`, 'must not be less than lead_time_from');
      }
      if (link.costPriceSet !== undefined && link.costPriceSet !== null && link.costPriceSet.trim() === '') {
        violations.add(`${at}/cost_price_set`, 'must not be empty; send null for the default set');
      }
    });
  }
  item.translations?.forEach((translation, k) => {
    if (translation.name.trim() === '') violations.add(`${pointer}/translations/${k}/name`, 'must not be empty');
    if (translation.locale.id === undefined && translation.locale.code === undefined) {
      violations.add(
        `${pointer}/translations/${k}`,
        'must name the locale by product_locale_id or product_locale_code',
      );
    }
  });
}

/** A variant's own fields, including its prices, stock changes, images and cost prices. */
export function checkVariantFields(variant: VariantSyncItem, pointer: string, violations: ViolationList): void {
  if (variant.sku.trim() === '') violations.add(`${pointer}/sku`, 'must not be empty');
  if (variant.attributes !== undefined) {
    if (!isPlainObject(variant.attributes))
      violations.add(`${pointer}/attributes`, 'must be an object of attribute names to values');
    else {
      for (const [name, value] of Object.entries(variant.attributes)) {
        if (name.trim() === '') violations.add(`${pointer}/attributes`, 'must not have an empty attribute name');
        else if (typeof value !== 'string') violations.add(`${pointer}/attributes/${name}`, 'must be a string');
      }
    }
  }
  checkMeta(variant.meta, `${pointer}/meta`, violations);
  checkWeight(variant.weight, `${pointer}/weight`, violations);
  checkWeightType(variant.weightType, `${pointer}/weight_type`, violations);
  checkDate(variant.releaseDate, `${pointer}/release_date`, violations);

  for (const [currency, price] of Object.entries(variant.prices ?? {})) {
    const at = `${pointer}/prices/${currency}`;
    if (!isCurrencyCode(currency))
      violations.add(at, 'must be keyed by a 3-letter ISO 4217 code in capitals, such as EUR');
    if (price === null) continue;
    for (const [field, value] of [
      ['sales_price', price.salesPrice],
      ['rec_sales_price', price.recSalesPrice],
      ['offer_price', price.offerPrice],
      ['b2c_offer_price', price.b2cOfferPrice],
    ] as const) {
      if (value !== undefined && value !== null && parseMoney(value) === null)
        violations.add(`${at}/${field}`, 'must be an amount of at least 0 with at most 2 decimals');
    }
  }

  variant.inventory?.forEach((change, k) => {
    const at = `${pointer}/inventory/${k}`;
    const hasQuantity = change.quantity !== undefined && change.quantity !== null;
    const hasAdjustment = change.adjustment !== undefined && change.adjustment !== null;
    if (hasQuantity === hasAdjustment)
      violations.add(at, 'must give exactly one of quantity (sets the stock) and adjustment (changes it)');
    if (hasQuantity && (!isInteger(change.quantity) || change.quantity < 0))
      violations.add(`${at}/quantity`, 'must be a whole number of at least 0');
    if (hasAdjustment && !isInteger(change.adjustment)) violations.add(`${at}/adjustment`, 'must be a whole number');
  });

  variant.images?.forEach((image, k) => {
    if (image.url.trim() === '') violations.add(`${pointer}/images/${k}/url`, 'must not be empty');
  });

  variant.costPrices?.forEach((cost, k) => {
    const at = `${pointer}/cost_prices/${k}`;
    if (!isCurrencyCode(cost.currency))
      violations.add(`${at}/currency`, 'must be a 3-letter ISO 4217 code in capitals, such as EUR');
    if (parseMoney(cost.costPrice) === null)
      violations.add(`${at}/cost_price`, 'must be an amount of at least 0 with at most 2 decimals');
    if (cost.costPriceSetLabel !== undefined && cost.costPriceSetLabel.trim() === '')
      violations.add(`${at}/cost_price_set_label`, 'must not be empty');
  });
}
