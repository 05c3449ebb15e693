import { ProductImage, ProductImageRepository } from '@brand/core';
import { Selectable } from 'kysely';
import { ProductImagesTable } from '../../tables/catalog.tables';
import { groupBy, runInChunks, selectInChunks, unique } from '../batches';
import { bulkInsert, upsertByIdWithinBrand } from '../bulk-insert';
import { Executor } from '../executor';
import { toNullableNumber } from '../json-columns';

const rowToImage = (r: Selectable<ProductImagesTable>, variantIds: number[]): ProductImage => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  productId: Number(r.product_id),
  blobKey: r.blob_key,
  sourceUrl: r.source_url,
  existanceKey: r.existance_key,
  contentType: r.content_type,
  sizeBytes: Number(r.size_bytes),
  alt: r.alt,
  filename: r.filename,
  sort: Number(r.sort),
  sortB2c: toNullableNumber(r.sort_b2c),
  variantIds,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const imageToRow = (i: ProductImage): Selectable<ProductImagesTable> => ({
  id: i.id,
  brand_id: i.brandId,
  product_id: i.productId,
  blob_key: i.blobKey,
  source_url: i.sourceUrl,
  existance_key: i.existanceKey,
  content_type: i.contentType,
  size_bytes: i.sizeBytes,
  alt: i.alt,
  filename: i.filename,
  sort: i.sort,
  sort_b2c: i.sortB2c,
  created_at: i.createdAt,
  updated_at: i.updatedAt,
});

const IMAGE_UPDATE_COLUMNS = [
  'product_id',
  'blob_key',
  'source_url',
  'existance_key',
  'content_type',
  'size_bytes',
  'alt',
  'filename',
  'sort',
  'sort_b2c',
  'updated_at',
] as const satisfies readonly (keyof ProductImagesTable)[];
const IMAGE_UPSERT = upsertByIdWithinBrand('product_images', IMAGE_UPDATE_COLUMNS);

export function productImageRepository(executor: Executor): ProductImageRepository {
  const { db } = executor;

  /** Images from rows (in the rows' order) with their variant ids (ascending), in one more query. */
  const withVariants = async (brandId: number, rows: Selectable<ProductImagesTable>[]): Promise<ProductImage[]> => {
    const links = await selectInChunks(
      rows.map((r) => Number(r.id)),
      (ids) =>
        db
          .selectFrom('product_image_variants')
          .select(['image_id', 'variant_id'])
          .where('brand_id', '=', brandId)
          .where('image_id', 'in', ids)
          .orderBy('image_id')
          .orderBy('variant_id')
          .execute(),
    );
    const byImage = groupBy(links, (l) => Number(l.image_id));
    return rows.map((r) =>
      rowToImage(
        r,
        (byImage.get(Number(r.id)) ?? []).map((l) => Number(l.variant_id)),
      ),
    );
  };

  return {
    async findByProductIds(brandId, productIds) {
      const rows = await selectInChunks(unique(productIds), (ids) =>
        db
          .selectFrom('product_images')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('product_id', 'in', ids)
          .execute(),
      );
      // A product's images in display order.
      rows.sort(
        (a, b) =>
          Number(a.product_id) - Number(b.product_id) || Number(a.sort) - Number(b.sort) || Number(a.id) - Number(b.id),
      );
      return withVariants(brandId, rows);
    },
    async findBySourceUrls(brandId, urls) {
      const rows = await selectInChunks(unique(urls), (chunk) =>
        db
          .selectFrom('product_images')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('source_url', 'in', chunk)
          .execute(),
      );
      return withVariants(
        brandId,
        rows.sort((a, b) => Number(a.id) - Number(b.id)),
      );
    },
    async findByExistanceKeys(brandId, keys) {
      const rows = await selectInChunks(unique(keys), (chunk) =>
        db
          .selectFrom('product_images')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('existance_key', 'in', chunk)
          .execute(),
      );
      return withVariants(
        brandId,
        rows.sort((a, b) => Number(a.id) - Number(b.id)),
      );
    },
    async saveAll(images) {
      if (images.length === 0) return;
      const rows = images.map(imageToRow);
      await bulkInsert(executor, 'product_images', rows, { conflict: IMAGE_UPSERT });
      // Make the attachments equal to the images' variant ids.
      for (const [brandId, ofBrand] of groupBy(images, (i) => i.brandId)) {
        await runInChunks(
          ofBrand.map((i) => i.id),
          (ids) =>
            db
              .deleteFrom('product_image_variants')
              .where('brand_id', '=', brandId)
              .where('image_id', 'in', ids)
              .execute(),
        );
      }
      await bulkInsert(
        executor,
        'product_image_variants',
        images.flatMap((i) =>
          unique(i.variantIds).map((variantId) => ({ brand_id: i.brandId, image_id: i.id, variant_id: variantId })),
        ),
      );
    },
    async delete(brandId, ids) {
      // Attachments go by ON DELETE CASCADE.
      await runInChunks(unique(ids), (chunk) =>
        db.deleteFrom('product_images').where('brand_id', '=', brandId).where('id', 'in', chunk).execute(),
      );
    },
  };
}
