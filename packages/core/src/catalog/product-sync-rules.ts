import { DomainError, Violation, ViolationList, pointerToPath } from '../shared/errors';
import { ProductAggregate, VariantRecord } from './catalog.entities';
import { VariantRef } from './catalog.ports';
import { ProductSyncItem, VariantSyncItem } from './product-sync.input';

/**
 * The business rules of a product sync that look at the request as a whole or at stored data:
 * unique keys per request, SKUs that belong to another product, what a new product or variant
 * needs, matching attribute names, and the last variant of a product.
 */

const itemIndexOf = (pointer: string): number => Number(/^\/products\/(\d+)/.exec(pointer)?.[1] ?? -1);

/** A pointer of the sync's request (`/products/0/variants/1/sku`) as the caller's request names that field. */
export type SyncPointerMap = (pointer: string) => string;

/** Strips `prefix` (and only a whole segment of it) from the pointers that start with it. */
const strip =
  (...prefixes: string[]): SyncPointerMap =>
  (pointer) => {
    for (const prefix of prefixes)
      if (pointer === prefix || pointer.startsWith(`${prefix}/`)) return pointer.slice(prefix.length);
    return pointer;
  };

/**
 * The violations of a product sync, reported in the order of the items they concern (checks run
 * per kind across the request, e.g. all references in one query, so they are found out of order);
 * within an item, in the order they were found.
 *
 * The rules name fields as the sync's request does (`/products/0/variants/1/sku`). A write of one
 * product or one variant runs the same rules over a one-item request, and names the fields of its
 * own body instead: `forOneProduct` reads `/products/0/…` as `/…`, `forOneVariant` reads
 * `/products/0/variants/0/…` as `/…`.
 */
export class ProductSyncViolations extends ViolationList {
  private readonly collected: (Violation & { item: number })[] = [];

  constructor(private readonly toRequestPointer: SyncPointerMap = (pointer) => pointer) {
    super();
  }

  /** Violations of a body that is one product (`POST /v10/products`, `PATCH /v10/products/{id}`). */
  static forOneProduct(): ProductSyncViolations {
    return new ProductSyncViolations(strip('/products/0'));
  }

  /** Violations of a body that is one variant (`POST /v10/products/{id}/variants`, `PATCH /v10/variants/{id}`). */
  static forOneVariant(): ProductSyncViolations {
    return new ProductSyncViolations(strip('/products/0/variants/0', '/products/0'));
  }

  override add(pointer: string, message: string): void {
    const path = this.pathOf(pointer);
    this.collected.push({
      item: itemIndexOf(pointer),
      pointer: this.toRequestPointer(pointer),
      detail: path === '' ? message : `${path} ${message}`,
    });
  }

  /** How a message names another field of the request (`products[0].variants[1]`, or `variants[1]` for one product). */
  pathOf(pointer: string): string {
    return pointerToPath(this.toRequestPointer(pointer));
  }

  override get isEmpty(): boolean {
    return this.collected.length === 0;
  }

  override throwIfAny(): void {
    if (this.collected.length === 0) return;
    throw DomainError.validation(
      [...this.collected].sort((a, b) => a.item - b.item).map(({ pointer, detail }) => ({ pointer, detail })),
    );
  }
}

/** Item numbers and SKUs appear once per request: two updates of one record in one request would be ambiguous. */
export function checkRequestKeys(items: ProductSyncItem[], violations: ProductSyncViolations): void {
  const itemIndex = new Map<string, number>();
  const skuIndex = new Map<string, string>();
  items.forEach((item, i) => {
    const pointer = `/products/${i}`;
    if (item.itemNumber.trim() === '') violations.add(`${pointer}/item_number`, 'must not be empty');
    const earlier = itemIndex.get(item.itemNumber);
    if (earlier !== undefined)
      violations.add(`${pointer}/item_number`, `repeats products[${earlier}]; send each product once per request`);
    else itemIndex.set(item.itemNumber, i);
    (item.variants ?? []).forEach((variant, j) => {
      const at = violations.pathOf(`${pointer}/variants/${j}`);
      const first = skuIndex.get(variant.sku);
      if (first !== undefined)
        violations.add(
          `${pointer}/variants/${j}/sku`,
          `repeats the SKU of ${first}; send each variant once per request`,
        );
      else skuIndex.set(variant.sku, at);
    });
  });
}

/** The stored variant of this product with the SKU, if any. */
export function storedVariant(current: ProductAggregate | undefined, sku: string): VariantRecord | undefined {
  return current?.variants.find((record) => record.variant.sku === sku);
}

/**
 * Rules of one product item that is not deleted: a new product needs a name and a variant; a new
 * variant needs attributes; a SKU stays with its product; no stock for `no_inventory` products.
 */
export function checkProductItem(
  item: ProductSyncItem,
  pointer: string,
  current: ProductAggregate | undefined,
  owners: Map<string, VariantRef>,
  violations: ViolationList,
): void {
  // A blank name is reported by the field checks.
  if (!current && item.name === undefined) violations.add(`${pointer}/name`, 'is required for a new product');
  const variants = item.variants ?? [];
  if (!current && !variants.some((variant) => !variant.delete)) {
    violations.add(`${pointer}/variants`, 'must contain at least one variant for a new product');
  }
  const noInventory = item.noInventory ?? current?.product.noInventory ?? false;
  variants.forEach((variant, j) => {
    const at = `${pointer}/variants/${j}`;
    const owner = owners.get(variant.sku);
    if (owner && owner.itemNumber !== item.itemNumber) {
      violations.add(
        `${at}/sku`,
        `belongs to product ${JSON.stringify(owner.itemNumber)}; a SKU cannot move to another product`,
      );
      return;
    }
    if (variant.delete) return;
    if (
      !storedVariant(current, variant.sku) &&
      (variant.attributes === undefined || Object.keys(variant.attributes).length === 0)
    ) {
      violations.add(
        `${at}/attributes`,
        'is required for a new variant (at least one attribute, such as size or color)',
      );
    }
    if (noInventory && (variant.inventory ?? []).length > 0) {
      violations.add(
        `${at}/inventory`,
        `cannot be sent: product ${JSON.stringify(item.itemNumber)} has no_inventory, so no stock is kept for it`,
      );
    }
  });
  checkAttributeNames(item, pointer, current, violations);
  checkLastVariant(item, pointer, current, violations);
}

const namesOf = (attributes: Record<string, string>) => Object.keys(attributes).sort().join(', ');

/**
 * All variants of a product have the same attribute names (older-interface rule 1000001). The
 * stored variants the request does not name set the standard; otherwise the first variant sent.
 */
function checkAttributeNames(
  item: ProductSyncItem,
  pointer: string,
  current: ProductAggregate | undefined,
  violations: ViolationList,
): void {
  const sent = (item.variants ?? []).map((variant, j) => ({ variant, j })).filter(({ variant }) => !variant.delete);
  if (!sent.some(({ variant }) => variant.attributes !== undefined)) return;
  const sentSkus = new Set((item.variants ?? []).map((variant) => variant.sku));
  const unsent = (current?.variants ?? [])
    .filter((record) => !sentSkus.has(record.variant.sku))
    .sort((a, b) => a.variant.position - b.variant.position);
  const final = sent.map(({ variant, j }) => ({
    names: namesOf({
      ...(storedVariant(current, variant.sku)?.variant.attributes ?? {}),
      ...(variant.attributes ?? {}),
    }),
    j,
    variant,
  }));
  const standard = unsent[0] ? namesOf(unsent[0].variant.attributes) : final[0]?.names;
  for (const { names, j, variant } of final) {
    if (names === '' || names === standard) continue;
    violations.add(
      `${pointer}/variants/${j}/attributes`,
      `must have the same attribute names as the product's other variants (${standard}); ${JSON.stringify(variant.sku)} would have ${names}`,
    );
  }
}

/** A product keeps at least one variant: deleting the last one is refused (delete the product instead). */
function checkLastVariant(
  item: ProductSyncItem,
  pointer: string,
  current: ProductAggregate | undefined,
  violations: ViolationList,
): void {
  if (!current) return;
  const variants = item.variants ?? [];
  const deleted = new Set(variants.filter((v) => v.delete && storedVariant(current, v.sku)).map((v) => v.sku));
  if (deleted.size === 0) return;
  const remaining = current.variants.filter((record) => !deleted.has(record.variant.sku)).length;
  const created = variants.filter((v: VariantSyncItem) => !v.delete && !storedVariant(current, v.sku)).length;
  if (remaining + created > 0) return;
  const last = variants
    .map((v, j) => ({ v, j }))
    .filter(({ v }) => v.delete)
    .pop()!;
  violations.add(
    `${pointer}/variants/${last.j}/delete`,
    `would delete the last variant of product ${JSON.stringify(item.itemNumber)}; a product needs a variant, so delete the product instead`,
  );
}
