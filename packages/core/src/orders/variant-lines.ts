import { ViolationList } from '../shared/errors';
import { settleAll } from '../shared/settle-all';

/** A line of a request naming a variant by SKU or by EAN (exactly one of them), with a quantity. */
export interface VariantLineInput {
  sku?: string;
  ean?: string;
  quantity: number;
}

/**
 * Where the SKUs and EANs of request lines are looked up: the catalog (placing an order) or the
 * lines of a document (a partial shipment names lines of its order, a delivery lines of its
 * shipment). Several items may share a variant (an order with two lines of one SKU): they are
 * one match; items of different variants under one EAN are an ambiguous line.
 */
export interface VariantLookup<T> {
  bySkus(skus: string[]): Promise<T[]>;
  byEans(eans: string[]): Promise<T[]>;
  skuOf(item: T): string;
  eanOf(item: T): string | null;
  variantIdOf(item: T): number;
  /** How a miss reads in the violation: `is not a variant of this brand`, `is not on order 1001`. */
  missing: string;
}

/** A request line matched to its variant. */
export interface ResolvedLine<T> {
  /** Index of the line in the request. */
  index: number;
  quantity: number;
  variantId: number;
  sku: string;
  /** The first item of the lookup naming the variant. */
  match: T;
  /** Pointer of the field that named the variant (`…/lines/2/sku` or `…/lines/2/ean`). */
  keyPointer: string;
  /** Pointer of the line's quantity. */
  quantityPointer: string;
}

/**
 * Matches every line of a request to a variant in two lookups (SKUs, EANs), reporting under
 * `pointer` (`/order/lines`) each line that names no variant, names it twice, names an unknown
 * or ambiguous one, or asks for a quantity that is not a whole number above 0. Returns the lines
 * that matched, in request order.
 */
export async function resolveVariantLines<T>(
  lines: readonly VariantLineInput[],
  pointer: string,
  lookup: VariantLookup<T>,
  violations: ViolationList,
): Promise<ResolvedLine<T>[]> {
  if (lines.length === 0) {
    violations.add(pointer, 'must contain at least one line');
    return [];
  }
  const skus = [...new Set(lines.flatMap((l) => (l.sku !== undefined && l.ean === undefined ? [l.sku] : [])))];
  const eans = [...new Set(lines.flatMap((l) => (l.ean !== undefined && l.sku === undefined ? [l.ean] : [])))];
  const [bySku, byEan] = await settleAll([
    skus.length ? lookup.bySkus(skus) : Promise.resolve([]),
    eans.length ? lookup.byEans(eans) : Promise.resolve([]),
  ]);
  const resolved: ResolvedLine<T>[] = [];
  lines.forEach((line, index) => {
    const at = `${pointer}/${index}`;
    const quantityPointer = `${at}/quantity`;
    if (!Number.isInteger(line.quantity) || line.quantity < 1)
      violations.add(quantityPointer, 'must be a whole number above 0');
    if (line.sku !== undefined && line.ean !== undefined) {
      violations.add(at, 'must name the variant by sku or by ean, not both');
      return;
    }
    if (line.sku === undefined && line.ean === undefined) {
      violations.add(`${at}/sku`, 'is required when ean is not given');
      return;
    }
    const bySkuKey = line.sku !== undefined;
    const keyPointer = `${at}/${bySkuKey ? 'sku' : 'ean'}`;
    const key = (bySkuKey ? line.sku : line.ean)!;
    const matches = bySkuKey
      ? bySku.filter((item) => lookup.skuOf(item) === key)
      : byEan.filter((item) => lookup.eanOf(item) === key);
    const variantIds = [...new Set(matches.map((item) => lookup.variantIdOf(item)))];
    if (variantIds.length === 0) {
      violations.add(keyPointer, `${JSON.stringify(key)} ${lookup.missing}`);
      return;
    }
    if (variantIds.length > 1) {
      violations.add(
        keyPointer,
        `${JSON.stringify(key)} matches ${variantIds.length} variants (SKUs ${matches.map((m) => lookup.skuOf(m)).join(', ')}); name the variant by sku`,
      );
      return;
    }
    const match = matches[0]!;
    resolved.push({
      index,
      quantity: line.quantity,
      variantId: variantIds[0]!,
      sku: lookup.skuOf(match),
      match,
      keyPointer,
      quantityPointer,
    });
  });
  return resolved;
}

/** A lookup over lines already in memory (an order's lines, a shipment's lines). */
export function lookupInLines<T extends { variantId: number; sku: string; ean: string | null }>(
  items: readonly T[],
  missing: string,
): VariantLookup<T> {
  return {
    bySkus: async (skus) => items.filter((item) => skus.includes(item.sku)),
    byEans: async (eans) => items.filter((item) => item.ean !== null && eans.includes(item.ean)),
    skuOf: (item) => item.sku,
    eanOf: (item) => item.ean,
    variantIdOf: (item) => item.variantId,
    missing,
  };
}

/** Sums quantities per variant over resolved lines (a variant may be named on several lines). */
export function quantitiesByVariant(lines: readonly { variantId: number; quantity: number }[]): Map<number, number> {
  const sums = new Map<number, number>();
  for (const line of lines) sums.set(line.variantId, (sums.get(line.variantId) ?? 0) + line.quantity);
  return sums;
}
