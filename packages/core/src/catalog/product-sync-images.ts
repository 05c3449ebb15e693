import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ProductImage } from './catalog.entities';
import { ImageDownloadRequest, StoredImage, downloadImages } from './download-images';
import { BlobStore, ImageFetcher } from './image-storage.ports';
import { ProductSyncItem, VariantImageInput } from './product-sync.input';

/**
 * Variant images of a product sync. Their bytes are obtained before the write transaction opens
 * (network time must not hold database locks): a URL the brand already has is reused, any other
 * is downloaded once per request. Inside the transaction the images are attached to their
 * variants: an image of the product made from the same URL gains the variant, otherwise a new
 * image of the product is made (sorted after the product's other images).
 */

/** A violation remembered from the download phase, to be reported with the transaction's checks. */
interface DeferredViolation {
  pointer: string;
  message: string;
}

/** Collects what `downloadImages` reports, so that it can be replayed into each transaction attempt. */
class RecordingViolationList extends ViolationList {
  readonly recorded: DeferredViolation[] = [];

  override add(pointer: string, message: string): void {
    super.add(pointer, message);
    this.recorded.push({ pointer, message });
  }
}

/** The outcome of the download phase. */
export class FetchedSyncImages {
  constructor(
    /** Bytes for every image URL of the request that could be obtained. */
    readonly byUrl: Map<string, StoredImage>,
    private readonly failures: DeferredViolation[],
  ) {}

  /** The outcome of a request that names no image. */
  static none(): FetchedSyncImages {
    return new FetchedSyncImages(new Map(), []);
  }

  /** Adds the download failures to a transaction attempt's violations. */
  report(violations: ViolationList): void {
    for (const { pointer, message } of this.failures) violations.add(pointer, message);
  }
}

/** Every image the request asks for, with the pointer of its URL; images of deleted products or variants are ignored. */
function imageRequests(items: ProductSyncItem[]): ImageDownloadRequest[] {
  return items.flatMap((item, i) =>
    item.delete
      ? []
      : (item.variants ?? []).flatMap((variant, j) =>
          variant.delete
            ? []
            : (variant.images ?? []).map((image, k) => ({
                url: image.url,
                pointer: `/products/${i}/variants/${j}/images/${k}/url`,
              })),
        ),
  );
}

/** Obtains the bytes of every image URL in the request, outside any transaction. */
export async function fetchSyncImages(
  deps: { uow: UnitOfWork<Pick<Repositories, 'productImages'>>; images: { fetcher: ImageFetcher; blobs: BlobStore } },
  brandId: number,
  items: ProductSyncItem[],
): Promise<FetchedSyncImages> {
  const requests = imageRequests(items).filter((request) => request.url.trim() !== '');
  const byUrl = new Map<string, StoredImage>();
  if (requests.length === 0) return new FetchedSyncImages(byUrl, []);
  const urls = [...new Set(requests.map((request) => request.url))];
  const known = await deps.uow.read((r) => r.productImages.findBySourceUrls(brandId, urls));
  for (const image of known) {
    if (!byUrl.has(image.sourceUrl))
      byUrl.set(image.sourceUrl, {
        blobKey: image.blobKey,
        contentType: image.contentType,
        sizeBytes: image.sizeBytes,
      });
  }
  const violations = new RecordingViolationList();
  const downloaded = await downloadImages(
    deps.images,
    requests.filter((request) => !byUrl.has(request.url)),
    violations,
  );
  for (const [url, stored] of downloaded) byUrl.set(url, stored);
  return new FetchedSyncImages(byUrl, violations.recorded);
}

/** The images one product's variants ask for, once every variant has its id. */
export interface ProductImageRequest {
  productId: number;
  /** False for a product this request creates (it has no stored images yet). */
  stored: boolean;
  variants: { variantId: number; images: VariantImageInput[] }[];
}

/**
 * The images to save so that each variant has the images it was sent, and the variants that
 * gained an image (or whose image changed). `deletedVariantIds` are variants this request
 * deletes: a saved image must no longer name them.
 */
export async function attachSyncImages(
  tx: Pick<Repositories, 'ids' | 'productImages'>,
  brandId: number,
  now: string,
  requests: ProductImageRequest[],
  fetched: FetchedSyncImages,
  deletedVariantIds: ReadonlySet<number>,
): Promise<{ images: ProductImage[]; changedVariantIds: Set<number> }> {
  const changedVariantIds = new Set<number>();
  const wanted = requests.filter((request) => request.variants.some((v) => v.images.length > 0));
  if (wanted.length === 0) return { images: [], changedVariantIds };
  const storedIds = wanted.filter((request) => request.stored).map((request) => request.productId);
  const storedImages = storedIds.length > 0 ? await tx.productImages.findByProductIds(brandId, storedIds) : [];

  const touched = new Map<ProductImage, true>();
  const fresh: Omit<ProductImage, 'id'>[] = [];
  for (const request of wanted) {
    const ofProduct: (ProductImage | Omit<ProductImage, 'id'>)[] = storedImages.filter(
      (image) => image.productId === request.productId,
    );
    let sort = ofProduct.reduce((max, image) => Math.max(max, image.sort), 0);
    for (const { variantId, images } of request.variants) {
      for (const input of images) {
        let image = ofProduct.find((candidate) => candidate.sourceUrl === input.url);
        if (!image) {
          const bytes = fetched.byUrl.get(input.url);
          // The download phase reported every URL it could not obtain; the request fails before this.
          if (!bytes) throw new Error(`image ${input.url} was neither downloaded nor known`);
          image = {
            brandId,
            productId: request.productId,
            blobKey: bytes.blobKey,
            sourceUrl: input.url,
            existanceKey: null,
            contentType: bytes.contentType,
            sizeBytes: bytes.sizeBytes,
            alt: input.alt ?? null,
            filename: null,
            sort: ++sort,
            sortB2c: null,
            variantIds: [],
            createdAt: now,
            updatedAt: now,
          };
          fresh.push(image);
          ofProduct.push(image);
        }
        let changed = false;
        if (!image.variantIds.includes(variantId)) {
          image.variantIds = [...image.variantIds, variantId];
          changed = true;
        }
        if (input.alt !== undefined && input.alt !== image.alt) {
          image.alt = input.alt;
          changed = true;
        }
        if (changed) {
          changedVariantIds.add(variantId);
          if ('id' in image) touched.set(image, true);
        }
      }
    }
  }

  const ids = fresh.length > 0 ? await tx.ids.next('product_images', fresh.length) : [];
  const images: ProductImage[] = [
    ...[...touched.keys()].map((image) => ({ ...image, updatedAt: now })),
    ...fresh.map((image, n) => ({ ...image, id: ids[n]! })),
  ];
  return {
    images: images.map((image) => ({
      ...image,
      variantIds: image.variantIds.filter((id) => !deletedVariantIds.has(id)),
    })),
    changedVariantIds,
  };
}
