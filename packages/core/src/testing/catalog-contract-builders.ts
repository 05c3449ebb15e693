import { newProduct, newVariant } from '../catalog/product-sync-merge';
import {
  Category,
  Collection,
  CostPriceSet,
  Drop,
  Product,
  ProductAggregate,
  ProductImage,
  ProductLocale,
  ProductSupplierLink,
  ProductTranslation,
  Subbrand,
  Variant,
  VariantCostPrice,
  VariantPrice,
  VariantRecord,
} from '../catalog/catalog.entities';
import { VariantRef } from '../catalog/catalog.ports';
import { NewStockMovement } from '../inventory/inventory.entities';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ascending } from './contract-builders';

/**
 * The builders and helpers the catalog and inventory contract suites share: products drafted from
 * a spec, the order adapters read an aggregate back in, stock movements, and the catalog's rows.
 */

const T0 = '2026-01-01T00:00:00.000Z';

/** Products by product id ascending (a copy). */
export const byProductId = (items: ProductAggregate[]): ProductAggregate[] =>
  [...items].sort((a, b) => a.product.id - b.product.id);
/** Variant references by variant id ascending (a copy). */
export const byVariantId = (items: VariantRef[]): VariantRef[] =>
  [...items].sort((a, b) => a.variant.id - b.variant.id);
/** Orders two strings by code unit, the same on every adapter and locale. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * An aggregate in the order every adapter reads it back: variants by (position, id), prices by
 * currency, cost prices by cost price set id, supplier links by supplier id, translations by
 * locale id, a product's category ids and a variant's drop ids ascending. Tags, colli and a
 * collection's allowed customers keep the order they were saved in.
 */
export function canonicalAggregate(aggregate: ProductAggregate): ProductAggregate {
  return {
    product: { ...aggregate.product, categoryIds: ascending(aggregate.product.categoryIds) },
    variants: [...aggregate.variants]
      .sort((a, b) => a.variant.position - b.variant.position || a.variant.id - b.variant.id)
      .map((r) => ({
        variant: { ...r.variant, dropIds: ascending(r.variant.dropIds) },
        prices: [...r.prices].sort((a, b) => compareText(a.currency, b.currency)),
        costPrices: [...r.costPrices].sort((a, b) => a.costPriceSetId - b.costPriceSetId),
      })),
    suppliers: [...aggregate.suppliers].sort((a, b) => a.supplierId - b.supplierId),
    translations: [...aggregate.translations].sort((a, b) => a.localeId - b.localeId),
  };
}

export type PriceSpec = Partial<VariantPrice> & { currency: string };
export type VariantSpec = Partial<Omit<Variant, 'brandId' | 'productId'>> & {
  prices?: PriceSpec[];
  costPrices?: Omit<VariantCostPrice, 'variantId'>[];
};
export type ProductSpec = Partial<Omit<Product, 'brandId'>> & {
  variants?: VariantSpec[];
  suppliers?: Omit<ProductSupplierLink, 'productId'>[];
  translations?: Omit<ProductTranslation, 'productId'>[];
};

/** Draws the ids a spec leaves open inside `tx` and builds the aggregate (children in the order given). */
export async function draftProduct(
  tx: Pick<Repositories, 'ids'>,
  brandId: number,
  spec: ProductSpec = {},
): Promise<ProductAggregate> {
  const { variants: variantSpecs = [{}], suppliers = [], translations = [], ...fields } = spec;
  const id = fields.id ?? (await tx.ids.next('products'))[0]!;
  const open = variantSpecs.filter((v) => v.id === undefined).length;
  const freshIds = open > 0 ? await tx.ids.next('variants', open) : [];
  let next = 0;
  const product: Product = { ...newProduct(id, brandId, `P-${id}`, T0), name: `Product ${id}`, ...fields };
  const variants = variantSpecs.map((vs, index): VariantRecord => {
    const { prices = [{ currency: 'EUR' }], costPrices = [], ...variantFields } = vs;
    const variantId = variantFields.id ?? freshIds[next++]!;
    const { variant } = newVariant(variantId, brandId, id, `SKU-${variantId}`, index + 1, T0);
    return {
      variant: { ...variant, attributes: { size: 'M' }, ...variantFields },
      prices: prices.map((p) => ({
        variantId,
        salesPrice: 1000,
        recSalesPrice: 2500,
        offerPrice: null,
        b2cOfferPrice: null,
        ...p,
      })),
      costPrices: costPrices.map((c) => ({ ...c, variantId })),
    };
  });
  return {
    product,
    variants,
    suppliers: suppliers.map((l) => ({ ...l, productId: id })),
    translations: translations.map((t) => ({ ...t, productId: id })),
  };
}

/** A stock movement of `delta` pieces in stock (and `reserved` reserved) with no document. */
export function aMovement(
  brandId: number,
  variantId: number,
  locationId: number,
  delta: number,
  reserved = 0,
  overrides: Partial<NewStockMovement> = {},
): NewStockMovement {
  return {
    brandId,
    variantId,
    locationId,
    inStockDelta: delta,
    reservedDelta: reserved,
    reason: 'api_quantity',
    note: null,
    documentType: null,
    documentId: null,
    userId: null,
    ...overrides,
  };
}

/** A product image (not saved), its id drawn in `tx` unless `fields` give one. */
export async function anImage(
  tx: Pick<Repositories, 'ids'>,
  brandId: number,
  productId: number,
  fields: Partial<Omit<ProductImage, 'brandId' | 'productId'>> = {},
): Promise<ProductImage> {
  const id = fields.id ?? (await tx.ids.next('product_images'))[0]!;
  return {
    id,
    brandId,
    productId,
    blobKey: `brand-${brandId}/images/${id}.jpg`,
    sourceUrl: `https://cdn.example/${brandId}/${id}.jpg`,
    existanceKey: null,
    contentType: 'image/jpeg',
    sizeBytes: 1024,
    alt: null,
    filename: null,
    sort: 1,
    sortB2c: null,
    variantIds: [],
    createdAt: T0,
    updatedAt: T0,
    ...fields,
  };
}

/** The variant of a saved aggregate as the variant lookups answer it. */
export const ref = (record: VariantRecord, itemNumber: string): VariantRef => ({ variant: record.variant, itemNumber });

/**
 * The catalog's builders over a suite's storage (`uow`, as `useContractStorage` answers it): each
 * saves one new row through the repositories, its id drawn from the storage, and returns it;
 * `byItemNumbers` and `oneProduct` read products back as the suites check them.
 */
export function catalogBuilders(uow: () => UnitOfWork) {
  async function aCostPriceSet(
    brandId: number,
    fields: Partial<Omit<CostPriceSet, 'id' | 'brandId'>> = {},
  ): Promise<CostPriceSet> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('cost_price_sets');
      const set: CostPriceSet = {
        id: id!,
        brandId,
        label: `Set ${id}`,
        currency: 'EUR',
        isDefault: false,
        createdAt: T0,
        ...fields,
      };
      await tx.costPriceSets.insert(set);
      return set;
    });
  }

  async function aLocale(brandId: number, code: string, localeName = `Locale ${code}`): Promise<ProductLocale> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('product_locales');
      const locale: ProductLocale = { id: id!, brandId, code, name: localeName };
      await tx.productLocales.insert(locale);
      return locale;
    });
  }

  async function aDrop(
    brandId: number,
    code: string,
    fields: Partial<Omit<Drop, 'id' | 'brandId' | 'code'>> = {},
  ): Promise<Drop> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('drops');
      const drop: Drop = { id: id!, brandId, code, name: `Drop ${code}`, createdAt: T0, updatedAt: T0, ...fields };
      await tx.drops.insert(drop);
      return drop;
    });
  }

  async function aCategory(
    brandId: number,
    categoryName: string,
    parentId: number | null = null,
    fields: Partial<Category> = {},
  ): Promise<Category> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('categories');
      const category: Category = {
        id: id!,
        brandId,
        parentId,
        name: categoryName,
        createdAt: T0,
        updatedAt: T0,
        ...fields,
      };
      await tx.categories.insert(category);
      return category;
    });
  }

  async function aCollection(
    brandId: number,
    fields: Partial<Omit<Collection, 'id' | 'brandId'>> = {},
  ): Promise<Collection> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('collections');
      const collection: Collection = {
        id: id!,
        brandId,
        title: `Collection ${id}`,
        active: true,
        visibility: 'own_entity',
        allowedCustomerIds: [],
        createdAt: T0,
        updatedAt: T0,
        ...fields,
      };
      await tx.collections.insert(collection);
      return collection;
    });
  }

  async function aSubbrand(brandId: number, subbrandName = 'Sub'): Promise<Subbrand> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('subbrands');
      const subbrand: Subbrand = { id: id!, brandId, name: `${subbrandName} ${id}`, createdAt: T0, updatedAt: T0 };
      await tx.subbrands.insert(subbrand);
      return subbrand;
    });
  }

  /** Saves one new product (one variant priced in EUR unless the spec says otherwise); returns it as adapters read it back. */
  async function aProduct(brandId: number, spec: ProductSpec = {}): Promise<ProductAggregate> {
    return uow().run(async (tx) => {
      const aggregate = await draftProduct(tx, brandId, spec);
      await tx.products.saveAll(brandId, [aggregate]);
      return canonicalAggregate(aggregate);
    });
  }

  const byItemNumbers = (brandId: number, itemNumbers: string[]) =>
    uow().read((r) => r.products.findByItemNumbers(brandId, itemNumbers));
  const oneProduct = async (brandId: number, productId: number): Promise<ProductAggregate | undefined> =>
    (await uow().read((r) => r.products.findByIds(brandId, [productId])))[0];

  return {
    aCostPriceSet,
    aLocale,
    aDrop,
    aCategory,
    aCollection,
    aSubbrand,
    aProduct,
    byItemNumbers,
    oneProduct,
  };
}
