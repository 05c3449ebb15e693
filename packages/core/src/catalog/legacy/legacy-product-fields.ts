import { Meta, Product, ProductAggregate, Variant, VariantPrice, VariantRecord } from '../catalog.entities';
import { LegacyProductChanges, NormalizedPrice, NormalizedVariant } from './legacy-product.input';

/*
 * The older form's fields in the catalog's records, both ways: where its image URLs, single colli,
 * integer EAN and attribute names sit in a product and its variants, and how a checked command
 * becomes the product's fields, a variant's prices or a new variant.
 */

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

/** The attribute names, sorted (storage may reorder JSON object keys, so the wire shows them sorted). */
export function attributeNamesOf(attributes: Record<string, string>): string[] {
  return Object.keys(attributes).sort();
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
