import { divideRounded, lineTotal } from '@brand/core';

/**
 * What decides whether and at what price an order's lines sell and where their pieces are
 * reserved: the rules of the project's placeOrder (order-pricing.ts, reserve-stock.ts,
 * shared/money.ts), on the rows the baseline reads. Each problem is reported with the pointer of
 * the field at fault and the project's wording.
 */

export interface VariantRow {
  id: number;
  product_id: number;
  sku: string;
  ean: string | null;
  attributes: string;
  archived: number;
  b2c_available: number;
  make_to_order_b2b: number | null;
  make_to_order_b2c: number | null;
  noos: number | null;
  meta: string;
}
export interface ProductRow {
  id: number;
  item_number: string;
  name: string;
  active: number;
  make_to_order_b2b: number;
  make_to_order_b2c: number;
  noos: number;
  no_inventory: number;
  min_order_quantity: number | null;
  order_colli_only: number;
  colli: string;
  meta: string;
}
export interface PriceRow {
  variant_id: number;
  currency: string;
  sales_price: number;
  rec_sales_price: number;
  offer_price: number | null;
  b2c_offer_price: number | null;
}
export interface BalanceRow {
  variant_id: number;
  location_id: number;
  in_stock: number;
  reserved: number;
}

/** A request line with the catalog rows it names, its price and its reservations. */
export interface Line {
  /** The line's index in the request (its pointer) and, once drawn, its id. */
  index: number;
  id: number;
  quantity: number;
  variant: VariantRow;
  product: ProductRow;
  unitPrice: number;
  discountBasisPoints: number;
  totalPrice: number;
  reservations: { locationId: number; quantity: number }[];
}

/** Reports a problem of the field at `pointer`. */
export type Report = (pointer: string, problem: string) => void;

export const skuPointer = (l: Line) => `/order/lines/${l.index}/sku`;
export const quantityPointer = (l: Line) => `/order/lines/${l.index}/quantity`;
export const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];
const flag = (value: number | null): boolean | null => (value === null ? null : value === 1);

/** Whether `quantity` pieces pack into whole colli of the given sizes (the project's isSumOfColli). */
function isSumOfColli(quantity: number, sizes: readonly number[]): boolean {
  const positive = unique(sizes.filter((s) => Number.isInteger(s) && s > 0));
  if (positive.length === 0) return false;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const divisor = positive.reduce(gcd);
  if (quantity % divisor !== 0) return false;
  const target = quantity / divisor;
  const units = positive.map((s) => s / divisor);
  if (target >= Math.min(...units) * Math.max(...units)) return true;
  const reachable = [true];
  for (let q = 1; q <= target; q++) reachable[q] = units.some((u) => u <= q && reachable[q - u]);
  return reachable[target] === true;
}

/**
 * Lines that may not be sold on this order type: an inactive product; on B2B an archived variant,
 * a quantity no sum of a colli-only product's colli, a product below its minimum order quantity
 * (over all its lines); on B2C a variant not available to B2C.
 */
export function checkSellable(lines: readonly Line[], b2b: boolean, report: Report): void {
  for (const l of lines) {
    const sku = l.variant.sku;
    if (l.product.active !== 1)
      report(skuPointer(l), `SKU ${sku} cannot be sold: product ${l.product.item_number} is inactive`);
    if (b2b && l.variant.archived === 1)
      report(skuPointer(l), `SKU ${sku} cannot be sold on B2B: the variant is archived`);
    if (!b2b && l.variant.b2c_available !== 1)
      report(skuPointer(l), `SKU ${sku} cannot be sold on B2C: the variant is not available to B2C`);
    const colli = JSON.parse(l.product.colli) as number[];
    if (b2b && l.product.order_colli_only === 1 && colli.length > 0 && !isSumOfColli(l.quantity, colli))
      report(
        quantityPointer(l),
        `SKU ${sku} is sold in colli of ${colli.join(' or ')} pieces only; ${l.quantity} is no sum of them`,
      );
  }
  if (!b2b) return;
  const perProduct = new Map<number, number>();
  for (const l of lines) perProduct.set(l.product.id, (perProduct.get(l.product.id) ?? 0) + l.quantity);
  for (const l of lines) {
    const minimum = l.product.min_order_quantity;
    const ordered = perProduct.get(l.product.id)!;
    if (minimum !== null && ordered < minimum)
      report(
        quantityPointer(l),
        `SKU ${l.variant.sku}: product ${l.product.item_number} is ordered ${ordered} pieces in all, below its minimum order quantity of ${minimum}`,
      );
  }
}

/**
 * Prices every line in `currency` (skipped when it is unknown): B2B the offer price, else the
 * sales price, less the customer's discount; B2C the B2C offer price, else the recommended one.
 */
export function priceLines(
  lines: readonly Line[],
  prices: readonly PriceRow[],
  terms: { b2b: boolean; currency: string | null; discountBasisPoints: number },
  report: Report,
): void {
  const { b2b, currency } = terms;
  if (currency === null) return;
  for (const l of lines) {
    const price = prices.find((p) => p.variant_id === l.variant.id && p.currency === currency);
    if (!price) {
      report(skuPointer(l), `SKU ${l.variant.sku} has no price in ${currency}`);
      continue;
    }
    l.unitPrice = b2b ? (price.offer_price ?? price.sales_price) : (price.b2c_offer_price ?? price.rec_sales_price);
    l.discountBasisPoints = b2b ? terms.discountBasisPoints : 0;
    l.totalPrice = lineTotal(l.quantity, l.unitPrice, l.discountBasisPoints);
  }
}

/**
 * Reserves the pieces of lines that track inventory: the default location first, then the others
 * by id, each giving what it has available (in stock − reserved, never below 0). A line short of
 * its variant's whole ordered quantity is reported, unless it sells beyond stock (make-to-order
 * for the order type, or NOOS; the variant's setting, else the product's).
 */
export function reserveStock(
  tracked: readonly Line[],
  balances: readonly BalanceRow[],
  defaultLocationId: number | null,
  b2b: boolean,
  report: Report,
): void {
  const free = new Map<number, { locationId: number; available: number }[]>();
  const byPreference = [...balances].sort(
    (a, b) =>
      Number(b.location_id === defaultLocationId) - Number(a.location_id === defaultLocationId) ||
      a.location_id - b.location_id,
  );
  for (const b of byPreference) {
    const list = free.get(b.variant_id) ?? [];
    list.push({ locationId: b.location_id, available: Math.max(0, b.in_stock - b.reserved) });
    free.set(b.variant_id, list);
  }
  const wanted = new Map<number, { quantity: number; lines: number }>();
  for (const l of tracked) {
    const w = wanted.get(l.variant.id) ?? { quantity: 0, lines: 0 };
    wanted.set(l.variant.id, { quantity: w.quantity + l.quantity, lines: w.lines + 1 });
  }
  for (const l of tracked) {
    const makeToOrder = b2b
      ? (flag(l.variant.make_to_order_b2b) ?? l.product.make_to_order_b2b === 1)
      : (flag(l.variant.make_to_order_b2c) ?? l.product.make_to_order_b2c === 1);
    if (makeToOrder || (flag(l.variant.noos) ?? l.product.noos === 1)) continue;
    const { quantity, lines } = wanted.get(l.variant.id)!;
    const available = (free.get(l.variant.id) ?? []).reduce((sum, f) => sum + f.available, 0);
    if (quantity > available)
      report(
        quantityPointer(l),
        `SKU ${l.variant.sku} is short: ${quantity} ordered${lines > 1 ? ` (over ${lines} lines)` : ''}, ${available} available`,
      );
  }
  for (const l of tracked) {
    let remaining = l.quantity;
    for (const location of free.get(l.variant.id) ?? []) {
      if (remaining === 0) break;
      const taken = Math.min(location.available, remaining);
      if (taken === 0) continue;
      location.available -= taken;
      remaining -= taken;
      l.reservations.push({ locationId: location.locationId, quantity: taken });
    }
  }
}

/** Net, VAT and total from the sum of the lines, rounded as the project's documentTotals rounds them. */
export function documentTotals(sum: number, vatRateBasisPoints: number, pricesIncludeVat: boolean) {
  const rate = BigInt(vatRateBasisPoints);
  if (pricesIncludeVat) {
    const net = divideRounded(BigInt(sum) * 10_000n, 10_000n + rate);
    return { netTotal: net, vatTotal: sum - net, total: sum };
  }
  const vat = divideRounded(BigInt(sum) * rate, 10_000n);
  return { netTotal: sum, vatTotal: vat, total: sum + vat };
}

/** Customs fields a line copies from the variant's meta, else the product's (non-empty text only). */
export function customsValues(
  l: Line,
): [countryOfOrigin: string | null, composition: string | null, hsTariffCode: string | null] {
  const variantMeta = JSON.parse(l.variant.meta) as Record<string, unknown>;
  const productMeta = JSON.parse(l.product.meta) as Record<string, unknown>;
  const value = (key: string): string | null => {
    for (const meta of [variantMeta, productMeta]) {
      const found = meta[key];
      if (typeof found === 'string' && found !== '') return found;
    }
    return null;
  };
  return [value('country_of_origin'), value('composition'), value('hs_tariff_code')];
}
