import { Clock, ProductAggregate, ProductImage } from '@brand/core';
import { Storage } from '@brand/persistence-kysely';

/**
 * Puts a product with variants of the given attributes straight into storage (SKU `<item>-<n>`),
 * so that the image sync tests depend on nothing but the repositories.
 */
export async function seedProduct(
  storage: Storage,
  clock: Clock,
  brandId: number,
  itemNumber: string,
  variants: Record<string, string>[] = [{ color: 'Black', size: 'M' }],
): Promise<ProductAggregate> {
  const now = clock.now();
  return storage.uow.run(async (tx) => {
    const [productId] = await tx.ids.next('products');
    const variantIds = await tx.ids.next('variants', variants.length);
    const aggregate: ProductAggregate = {
      product: {
        id: productId!,
        brandId,
        itemNumber,
        name: `Product ${itemNumber}`,
        description: null,
        active: true,
        makeToOrderB2b: false,
        makeToOrderB2c: false,
        meta: {},
        weight: null,
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
        tags: [],
        useSortB2c: false,
        subbrandId: null,
        collectionId: null,
        categoryIds: [],
        createdAt: now,
        updatedAt: now,
      },
      variants: variants.map((attributes, i) => ({
        variant: {
          id: variantIds[i]!,
          brandId,
          productId: productId!,
          sku: `${itemNumber}-${i + 1}`,
          ean: null,
          attributes,
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
          position: i,
          dropIds: [],
          createdAt: now,
          updatedAt: now,
        },
        prices: [],
        costPrices: [],
      })),
      suppliers: [],
      translations: [],
    };
    await tx.products.saveAll(brandId, [aggregate]);
    return aggregate;
  });
}

/** The stored images of a product, by sort then id. */
export async function storedImages(storage: Storage, brandId: number, productId: number): Promise<ProductImage[]> {
  const images = await storage.uow.read((r) => r.productImages.findByProductIds(brandId, [productId]));
  return images.sort((a, b) => a.sort - b.sort || a.id - b.id);
}

/** The stored product (to check flags such as use_sort_b2c). */
export async function storedProduct(storage: Storage, brandId: number, itemNumber: string) {
  const [aggregate] = await storage.uow.read((r) => r.products.findByItemNumbers(brandId, [itemNumber]));
  return aggregate?.product ?? null;
}
