import {
  Brand,
  Category,
  InventoryLocation,
  ProductAggregate,
  Repositories,
  Supplier,
  UnitOfWork,
  VariantRecord,
} from '@brand/core';

export const T0 = '2026-01-01T00:00:00.000Z';

/** Small builders for the Kysely-specific catalog tests (the shared contract has its own). */
export function catalogBuilders(uow: () => UnitOfWork) {
  async function aBrand(): Promise<Brand> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('brands');
      const brand: Brand = { id: id!, name: `Brand ${id}`, currency: 'EUR', createdAt: T0, updatedAt: T0 };
      await tx.brands.insert(brand);
      return brand;
    });
  }

  async function aSupplier(brandId: number): Promise<Supplier> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('suppliers');
      const supplier: Supplier = {
        id: id!,
        brandId,
        supplierNumber: `S-${id}`,
        name: `Supplier ${id}`,
        currency: 'EUR',
        active: true,
        email: null,
        addresses: [],
        createdAt: T0,
        updatedAt: T0,
      };
      await tx.suppliers.save(supplier);
      return supplier;
    });
  }

  async function aCategory(brandId: number, name: string, parentId: number | null = null): Promise<Category> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('categories');
      const category: Category = { id: id!, brandId, parentId, name, createdAt: T0, updatedAt: T0 };
      await tx.categories.insert(category);
      return category;
    });
  }

  async function aLocation(brandId: number, isDefault = false): Promise<InventoryLocation> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('inventory_locations');
      const location: InventoryLocation = {
        id: id!,
        brandId,
        name: `Location ${id}`,
        isDefault,
        createdAt: T0,
        updatedAt: T0,
      };
      await tx.inventoryLocations.insert(location);
      return location;
    });
  }

  return { aBrand, aSupplier, aCategory, aLocation };
}

/** Drafts `count` products of `variants` variants each (one EUR price per variant), ids drawn in `tx`. */
export async function draftProducts(
  tx: Repositories,
  brandId: number,
  count: number,
  variants: number,
  prefix = 'P',
): Promise<ProductAggregate[]> {
  const productIds = await tx.ids.next('products', count);
  const variantIds = count * variants > 0 ? await tx.ids.next('variants', count * variants) : [];
  return productIds.map((id, p) => ({
    product: {
      id,
      brandId,
      itemNumber: `${prefix}-${id}`,
      name: `Product ${id}`,
      description: `About product ${id}`,
      active: true,
      makeToOrderB2b: false,
      makeToOrderB2c: false,
      meta: { season: 'SS27' },
      weight: 1500,
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
      tags: ['new'],
      useSortB2c: false,
      subbrandId: null,
      collectionId: null,
      categoryIds: [],
      createdAt: T0,
      updatedAt: T0,
    },
    variants: Array.from({ length: variants }, (_, v): VariantRecord => {
      const variantId = variantIds[p * variants + v]!;
      return {
        variant: {
          id: variantId,
          brandId,
          productId: id,
          sku: `${prefix}-${id}-${v}`,
          ean: `87${String(variantId).padStart(11, '0')}`,
          attributes: { size: String(v) },
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
          position: v + 1,
          dropIds: [],
          createdAt: T0,
          updatedAt: T0,
        },
        prices: [
          { variantId, currency: 'EUR', salesPrice: 1999, recSalesPrice: 4995, offerPrice: null, b2cOfferPrice: null },
        ],
        costPrices: [],
      };
    }),
    suppliers: [],
    translations: [],
  }));
}
