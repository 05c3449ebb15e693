import { Product, Variant, VariantPrice } from '../catalog/catalog.entities';
import { ViolationList } from '../shared/errors';
import { OrderType } from './order.entities';

/**
 * What decides whether and at what price a variant sells on an order: the rules of the channel's
 * order type (B2B wholesale or B2C retail), the product's ordering terms (minimum quantity, colli)
 * and the variant's prices in the order's currency.
 */

/** One requested line with the catalog records it names. */
export interface OrderLineCandidate {
  index: number;
  quantity: number;
  product: Omit<Product, 'categoryIds'>;
  variant: Omit<Variant, 'dropIds'>;
  prices: VariantPrice[];
  keyPointer: string;
  quantityPointer: string;
}

export interface LinePrice {
  /** Per piece, before the discount: net on B2B, incl. VAT on B2C. */
  unitPrice: number;
  discountBasisPoints: number;
}

/** B2B orders carry net wholesale prices; B2C orders the retail prices the shopper saw, VAT included. */
export const pricesIncludeVatFor = (orderType: OrderType): boolean => orderType === 'b2c';

/**
 * The line's price in `currency`, or null when the variant has no price row in it. B2B: the
 * offer price when set, else the sales price, less the customer's discount. B2C: the B2C offer
 * price when set, else the recommended retail price, without discount.
 */
export function linePrice(
  orderType: OrderType,
  prices: readonly VariantPrice[],
  currency: string,
  customerDiscountBasisPoints: number,
): LinePrice | null {
  const row = prices.find((p) => p.currency === currency);
  if (!row) return null;
  return orderType === 'b2b'
    ? { unitPrice: row.offerPrice ?? row.salesPrice, discountBasisPoints: customerDiscountBasisPoints }
    : { unitPrice: row.b2cOfferPrice ?? row.recSalesPrice, discountBasisPoints: 0 };
}

/**
 * Reports every line that may not be sold on this order type, naming its SKU: an inactive
 * product; on B2B an archived variant, a product ordered below its minimum quantity (summed
 * over the order's lines of the product), a colli-only product in a quantity that is no sum of
 * its colli sizes; on B2C a variant not available to B2C.
 */
export function checkSellable(
  orderType: OrderType,
  candidates: readonly OrderLineCandidate[],
  violations: ViolationList,
): void {
  for (const c of candidates) {
    const sku = c.variant.sku;
    if (!c.product.active)
      violations.add(c.keyPointer, `SKU ${sku} cannot be sold: product ${c.product.itemNumber} is inactive`);
    if (orderType === 'b2b' && c.variant.archived)
      violations.add(c.keyPointer, `SKU ${sku} cannot be sold on B2B: the variant is archived`);
    if (orderType === 'b2c' && !c.variant.b2cAvailable)
      violations.add(c.keyPointer, `SKU ${sku} cannot be sold on B2C: the variant is not available to B2C`);
    if (
      orderType === 'b2b' &&
      c.product.orderColliOnly &&
      c.product.colli.length > 0 &&
      !isSumOfColli(c.quantity, c.product.colli)
    ) {
      violations.add(
        c.quantityPointer,
        `SKU ${sku} is sold in colli of ${c.product.colli.join(' or ')} pieces only; ${c.quantity} is no sum of them`,
      );
    }
  }
  if (orderType !== 'b2b') return;
  const perProduct = new Map<number, number>();
  for (const c of candidates) perProduct.set(c.product.id, (perProduct.get(c.product.id) ?? 0) + c.quantity);
  for (const c of candidates) {
    const minimum = c.product.minOrderQuantity;
    const ordered = perProduct.get(c.product.id)!;
    if (minimum !== null && ordered < minimum) {
      violations.add(
        c.quantityPointer,
        `SKU ${c.variant.sku}: product ${c.product.itemNumber} is ordered ${ordered} pieces in all, below its minimum order quantity of ${minimum}`,
      );
    }
  }
}

/**
 * Whether `quantity` pieces can be packed in whole colli of the given sizes (any mix). Beyond
 * the product of the smallest and largest size every multiple of their common divisor is
 * reachable, so the table is never longer than that.
 */
export function isSumOfColli(quantity: number, sizes: readonly number[]): boolean {
  const positive = [...new Set(sizes.filter((s) => Number.isInteger(s) && s > 0))];
  if (positive.length === 0) return false;
  const divisor = positive.reduce(gcd);
  if (quantity % divisor !== 0) return false;
  const target = quantity / divisor;
  const units = positive.map((s) => s / divisor);
  const bound = Math.min(...units) * Math.max(...units);
  if (target >= bound) return true;
  const reachable = new Array<boolean>(target + 1).fill(false);
  reachable[0] = true;
  for (let q = 1; q <= target; q++) reachable[q] = units.some((u) => u <= q && reachable[q - u]!);
  return reachable[target]!;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
