import { NewDomainEvent } from '../events/event.entities';
import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { sameData } from '../shared/sync-outcome';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ProductAggregate, ProductImage } from './catalog.entities';
import { ImageDownloadRequest, StoredImage, downloadImages } from './download-images';
import { BlobStore, ImageFetcher } from './image-storage.ports';
import { storedProductForm } from './product-events';
import { ImageIdentity, identityKey, matchStoredImages, variantsMatching } from './product-images-matching';
import { settleAll } from '../shared/settle-all';

/** Products per `POST /products/images/sync` request (the spec's limit: downloads are slow). */
export const MAX_PRODUCTS_PER_IMAGE_SYNC = 10;

/** One image of a product, as sent; the list of a product is its complete set of images. */
export interface ProductImageSyncInput {
  /** Where to download the image (http or https). */
  url: string;
  sort: number;
  /** Order on B2C channels (used when the product has `useSortB2c`); absent means null. */
  sortB2c?: number | null;
  /** Decides instead of the URL whether the image exists (for expiring or reused URLs). */
  existanceKey?: string | null;
  alt?: string | null;
  filename?: string | null;
  /**
   * Attribute name → attribute code: attaches the image to every variant of the product whose
   * attributes hold all pairs (names and codes compare case-insensitively). Absent or empty:
   * the image belongs to the whole product.
   */
  attachToVariantsMatching?: Readonly<Record<string, string>> | null;
  /** When the pairs match no variant: do not create the image (an existing one is kept). Default false. */
  skipIfNoVariantMatches?: boolean;
}

/** One product of `POST /products/images/sync`. */
export interface ProductImagesSyncItem {
  itemNumber: string;
  /** Sets the product's flag to order images by `sortB2c` on B2C channels; absent keeps it. */
  useSortB2c?: boolean;
  images: ProductImageSyncInput[];
}

/** What the image sync did with one requested image. */
export type ProductImageAction = 'created' | 'updated' | 'unchanged';

/** An image of the product after the sync, with what the sync did to it; `index` is its place in the request. */
export interface SyncedProductImage {
  index: number;
  image: ProductImage;
  action: ProductImageAction;
}

/** A requested image that was not created because it matched no variant and asked to be skipped then. */
export interface SkippedProductImage {
  index: number;
  url: string;
  existanceKey: string | null;
}

/**
 * What `syncProductImages` did for one product: its images after the sync, the requested images it
 * skipped and the stored images it deleted.
 */
export interface ProductImagesSyncResult {
  itemNumber: string;
  productId: number;
  useSortB2c: boolean;
  images: SyncedProductImage[];
  skippedImages: SkippedProductImage[];
  deletedImageIds: number[];
}

/**
 * The ports `syncProductImages` needs: storage, the clock, and an image fetcher and blob store for
 * the downloads.
 */
export interface ProductImagesSyncDeps {
  uow: UnitOfWork<
    Pick<
      Repositories,
      | 'events'
      | 'ids'
      | 'productImages'
      | 'products'
      | 'suppliers'
      | 'webhookDeliveries'
      | 'transaction'
      | 'webhookEndpoints'
    >
  >;
  clock: Clock;
  fetcher: ImageFetcher;
  blobs: BlobStore;
}

/** What `syncProductImages` is asked: the brand and, per product, the images it should have. */
export interface ProductImagesSyncCommand {
  brandId: number;
  products: ProductImagesSyncItem[];
  /** The request's name of the product list, for error pointers (`product_images` or `products`). Default `product_images`. */
  listKey?: string;
}

/** What the sync decided for one requested image against the product's stored images. */
interface ImageDecision {
  index: number;
  input: ProductImageSyncInput;
  identity: ImageIdentity;
  stored: ProductImage | null;
  /** Variants to attach to; null keeps the stored attachments (an existing image kept under the skip rule). */
  variantIds: number[] | null;
  skip: boolean;
}

const HTTP_URL = /^https?:\/\/[^\s/?#]+/i;

/** Downloads running at once: image hosts are slow one by one, and a request may bring a hundred images. */
export const IMAGE_DOWNLOAD_LANES = 4;

/** Remembers what `downloadImages` reports in one lane, to be merged back in request order. */
class RecordingViolationList extends ViolationList {
  readonly recorded: { pointer: string; message: string }[] = [];

  override add(pointer: string, message: string): void {
    super.add(pointer, message);
    this.recorded.push({ pointer, message });
  }
}

/**
 * `downloadImages` in a few lanes at once: the distinct URLs are dealt round-robin to the lanes
 * (all requests for one URL in the same lane, so it is still fetched once), and the failures
 * are reported in request order whatever lane finished first.
 */
async function downloadInLanes(
  deps: { fetcher: ImageFetcher; blobs: BlobStore },
  requests: ImageDownloadRequest[],
  violations: ViolationList,
): Promise<Map<string, StoredImage>> {
  const urls = [...new Set(requests.map((request) => request.url))];
  const laneOf = new Map(urls.map((url, i) => [url, i % IMAGE_DOWNLOAD_LANES]));
  const lanes = Array.from({ length: Math.min(IMAGE_DOWNLOAD_LANES, urls.length) }, (_, lane) =>
    requests.filter((r) => laneOf.get(r.url) === lane),
  );
  const done = await settleAll(
    lanes.map(async (lane) => {
      const recorder = new RecordingViolationList();
      return { stored: await downloadImages(deps, lane, recorder), recorded: recorder.recorded };
    }),
  );
  const order = new Map(requests.map((request, i) => [request.pointer, i]));
  for (const { pointer, message } of done
    .flatMap((lane) => lane.recorded)
    .sort((a, b) => order.get(a.pointer)! - order.get(b.pointer)!)) {
    violations.add(pointer, message);
  }
  return new Map(done.flatMap((lane) => [...lane.stored]));
}

function identityOf(input: ProductImageSyncInput): ImageIdentity {
  return { url: input.url, existanceKey: input.existanceKey ?? null };
}

function attachPairs(input: ProductImageSyncInput): Readonly<Record<string, string>> | null {
  const pairs = input.attachToVariantsMatching;
  return pairs && Object.keys(pairs).length > 0 ? pairs : null;
}

function decideImages(
  aggregate: ProductAggregate,
  stored: readonly ProductImage[],
  item: ProductImagesSyncItem,
): ImageDecision[] {
  const identities = item.images.map(identityOf);
  const matches = matchStoredImages(stored, identities);
  const variants = aggregate.variants.map((record) => record.variant);
  return item.images.map((input, index) => {
    const pairs = attachPairs(input);
    const matching = pairs ? variantsMatching(variants, pairs) : [];
    const unmatched = pairs !== null && matching.length === 0 && input.skipIfNoVariantMatches === true;
    const storedImage = matches[index] ?? null;
    return {
      index,
      input,
      identity: identities[index]!,
      stored: storedImage,
      variantIds: unmatched ? null : matching,
      skip: unmatched && storedImage === null,
    };
  });
}

/** The request's own rules, checked before anything is read or downloaded. */
function checkRequest(products: readonly ProductImagesSyncItem[], root: string, violations: ViolationList): void {
  if (products.length === 0) violations.add(root, 'must contain at least one product');
  if (products.length > MAX_PRODUCTS_PER_IMAGE_SYNC) {
    violations.add(
      root,
      `must contain at most ${MAX_PRODUCTS_PER_IMAGE_SYNC} products per request; split larger batches`,
    );
  }
  const firstProduct = new Map<string, number>();
  products.forEach((item, i) => {
    const pointer = `${root}/${i}`;
    const earlier = firstProduct.get(item.itemNumber);
    if (item.itemNumber.trim() === '') violations.add(`${pointer}/item_number`, 'must not be empty');
    else if (earlier !== undefined)
      violations.add(
        `${pointer}/item_number`,
        `repeats ${root.slice(1)}[${earlier}]; send each product once per request`,
      );
    else firstProduct.set(item.itemNumber, i);

    const firstImage = new Map<string, number>();
    item.images.forEach((image, j) => {
      const at = `${pointer}/images/${j}`;
      if (!HTTP_URL.test(image.url)) violations.add(`${at}/url`, 'must be an http or https URL');
      if (!Number.isInteger(image.sort)) violations.add(`${at}/sort`, 'must be an integer');
      if (image.sortB2c !== undefined && image.sortB2c !== null && !Number.isInteger(image.sortB2c))
        violations.add(`${at}/sort_b2c`, 'must be an integer or null');
      if (image.existanceKey !== undefined && image.existanceKey !== null && image.existanceKey.trim() === '') {
        violations.add(`${at}/existance_key`, 'must not be empty; leave it out to identify the image by its URL');
      }
      const key = identityKey(identityOf(image));
      const repeated = firstImage.get(key);
      if (repeated !== undefined) {
        const field = image.existanceKey ? 'existance_key' : 'url';
        violations.add(
          `${at}/${field}`,
          `repeats images[${repeated}] (the same ${field}); each image of a product is sent once`,
        );
      } else firstImage.set(key, j);
    });
  });
}

/** Products by item number; a missing one is a violation at its item. */
async function productsOf(
  repositories: Pick<Repositories, 'products'>,
  brandId: number,
  products: readonly ProductImagesSyncItem[],
  root: string,
  violations: ViolationList,
) {
  const found = new Map(
    (await repositories.products.findByItemNumbers(brandId, [...new Set(products.map((p) => p.itemNumber))])).map(
      (a) => [a.product.itemNumber, a],
    ),
  );
  products.forEach((item, i) => {
    if (item.itemNumber.trim() !== '' && !found.has(item.itemNumber))
      violations.add(`${root}/${i}/item_number`, `does not exist: no product has item number ${item.itemNumber}`);
  });
  return found;
}

function imagesByProduct(images: readonly ProductImage[]): Map<number, ProductImage[]> {
  const byProduct = new Map<number, ProductImage[]>();
  for (const image of images) {
    const list = byProduct.get(image.productId) ?? [];
    list.push(image);
    byProduct.set(image.productId, list);
  }
  return byProduct;
}

const storedImageOf = (image: ProductImage): StoredImage => ({
  blobKey: image.blobKey,
  contentType: image.contentType,
  sizeBytes: image.sizeBytes,
});

/**
 * Finds the bytes of every image the sync will create: those of an image the brand already has
 * (the same existance key, or the same URL when no key is sent), else downloaded, each distinct
 * URL once. Runs outside any transaction: downloads take network time, which must not hold
 * database locks. Returns the bytes by image identity; problems become violations.
 */
async function obtainImageBytes(
  deps: ProductImagesSyncDeps,
  command: Required<ProductImagesSyncCommand>,
  violations: ViolationList,
): Promise<Map<string, StoredImage>> {
  const { brandId, products, listKey } = command;
  const root = `/${listKey}`;
  const sources = new Map<string, StoredImage>();
  const missing = await deps.uow.read(async (r) => {
    const aggregates = await productsOf(r, brandId, products, root, violations);
    if (!violations.isEmpty) return [];
    const stored = imagesByProduct(
      await r.productImages.findByProductIds(
        brandId,
        [...aggregates.values()].map((a) => a.product.id),
      ),
    );
    const unknown: { identity: ImageIdentity; pointer: string }[] = [];
    products.forEach((item, i) => {
      const aggregate = aggregates.get(item.itemNumber)!;
      for (const decision of decideImages(aggregate, stored.get(aggregate.product.id) ?? [], item)) {
        if (decision.stored) sources.set(identityKey(decision.identity), storedImageOf(decision.stored));
        else if (!decision.skip)
          unknown.push({ identity: decision.identity, pointer: `${root}/${i}/images/${decision.index}/url` });
      }
    });

    const keys = [
      ...new Set(unknown.flatMap(({ identity }) => (identity.existanceKey !== null ? [identity.existanceKey] : []))),
    ];
    const urls = [
      ...new Set(unknown.flatMap(({ identity }) => (identity.existanceKey === null ? [identity.url] : []))),
    ];
    const byKey = keys.length > 0 ? await r.productImages.findByExistanceKeys(brandId, keys) : [];
    // Bytes fetched from the URL itself come before bytes filed under an existance key.
    const byUrl = (urls.length > 0 ? await r.productImages.findBySourceUrls(brandId, urls) : []).sort(
      (a, b) => Number(a.existanceKey !== null) - Number(b.existanceKey !== null) || a.id - b.id,
    );
    for (const image of byKey) {
      const key = identityKey({ url: image.sourceUrl, existanceKey: image.existanceKey });
      if (!sources.has(key)) sources.set(key, storedImageOf(image));
    }
    for (const image of byUrl) {
      const key = identityKey({ url: image.sourceUrl, existanceKey: null });
      if (!sources.has(key)) sources.set(key, storedImageOf(image));
    }
    return unknown.filter(({ identity }) => !sources.has(identityKey(identity)));
  });
  if (!violations.isEmpty || missing.length === 0) return sources;

  const downloaded = await downloadInLanes(
    deps,
    missing.map(({ identity, pointer }): ImageDownloadRequest => ({ url: identity.url, pointer })),
    violations,
  );
  for (const { identity } of missing) {
    const image = downloaded.get(identity.url);
    if (image) sources.set(identityKey(identity), image);
  }
  return sources;
}

function sortedIds(ids: readonly number[]): number[] {
  return [...ids].sort((a, b) => a - b);
}

/** The writes of one product, inside the transaction; `updated` is the product as saved when its row changed. */
async function applyToProduct(
  tx: Pick<Repositories, 'ids' | 'productImages' | 'products'>,
  context: { brandId: number; now: string; sources: Map<string, StoredImage> },
  aggregate: ProductAggregate,
  stored: readonly ProductImage[],
  item: ProductImagesSyncItem,
): Promise<{ result: ProductImagesSyncResult; updated: ProductAggregate | null }> {
  const { brandId, now, sources } = context;
  const product = aggregate.product;
  const decisions = decideImages(aggregate, stored, item);
  const fresh = decisions.filter((d) => d.stored === null && !d.skip);
  const newIds = fresh.length > 0 ? await tx.ids.next('product_images', fresh.length) : [];
  let nextId = 0;

  const images: SyncedProductImage[] = [];
  const skippedImages: SkippedProductImage[] = [];
  const toSave: ProductImage[] = [];
  for (const decision of decisions) {
    const { index, input, identity } = decision;
    if (decision.skip) {
      skippedImages.push({ index, url: input.url, existanceKey: identity.existanceKey });
      continue;
    }
    const fields = {
      sourceUrl: input.url,
      existanceKey: identity.existanceKey,
      alt: input.alt ?? null,
      filename: input.filename ?? null,
      sort: input.sort,
      sortB2c: input.sortB2c ?? null,
    };
    const current = decision.stored;
    if (current) {
      const next: ProductImage = {
        ...current,
        ...fields,
        variantIds: sortedIds(decision.variantIds ?? current.variantIds),
      };
      const changed = !sameData(
        { ...next, updatedAt: '' },
        { ...current, variantIds: sortedIds(current.variantIds), updatedAt: '' },
      );
      if (changed) toSave.push({ ...next, updatedAt: now });
      images.push({
        index,
        image: changed ? { ...next, updatedAt: now } : current,
        action: changed ? 'updated' : 'unchanged',
      });
      continue;
    }
    const bytes = sources.get(identityKey(identity));
    if (!bytes) {
      // The product's images changed between the downloads and this transaction, so an image
      // the downloads took for existing is now missing. Sending the request again resolves it.
      throw new DomainError(
        'concurrency_conflict',
        `the images of product ${product.itemNumber} changed during the sync; send the request again`,
      );
    }
    const created: ProductImage = {
      id: newIds[nextId++]!,
      brandId,
      productId: product.id,
      ...bytes,
      ...fields,
      variantIds: sortedIds(decision.variantIds ?? []),
      createdAt: now,
      updatedAt: now,
    };
    toSave.push(created);
    images.push({ index, image: created, action: 'created' });
  }

  const kept = new Set(decisions.flatMap((d) => (d.stored ? [d.stored.id] : [])));
  const deletedImageIds = stored.filter((image) => !kept.has(image.id)).map((image) => image.id);
  if (deletedImageIds.length > 0) await tx.productImages.delete(brandId, deletedImageIds);
  if (toSave.length > 0) await tx.productImages.saveAll(toSave);

  // Storefront connectors poll products by updated_at: a product whose images changed is changed.
  const useSortB2c = item.useSortB2c ?? product.useSortB2c;
  let updated: ProductAggregate | null = null;
  if (useSortB2c !== product.useSortB2c || toSave.length > 0 || deletedImageIds.length > 0) {
    updated = { ...aggregate, product: { ...product, useSortB2c, updatedAt: now } };
    await tx.products.saveAll(brandId, [updated]);
  }
  return {
    result: {
      itemNumber: product.itemNumber,
      productId: product.id,
      useSortB2c,
      images,
      skippedImages,
      deletedImageIds,
    },
    updated,
  };
}

/**
 * `POST /products/images/sync`: makes each product's images equal to the complete set sent.
 * An image is matched to a stored one by its `existance_key` when sent, else by its URL; a
 * matched image is updated (sort, alt, filename, variants …), an unmatched one created, and the
 * product's images not sent are deleted. Bytes are never fetched twice: a URL (or existance key)
 * the brand already has reuses its stored blob, the rest is downloaded before the transaction
 * opens. Everything is checked first: an unknown item number or a failed download is a
 * `validation_failed` naming the field, and nothing is written.
 *
 * A product whose images or `use_sort_b2c` changed gets a new `updated_at`, so it is announced as
 * `product.updated` (in request order, in the same transaction); an unchanged product is not.
 *
 * Blobs of deleted images stay in the blob store: keys are content hashes that other images
 * (of any product) may share.
 *
 * @example
 * const [result] = await syncProductImages({ uow, clock, fetcher, blobs }, {
 *   brandId, products: [{ itemNumber: 'TS-100', images: [{ url: 'https://cdn.example.com/ts-100.jpg', sort: 1 }] }],
 * });
 */
export async function syncProductImages(
  deps: ProductImagesSyncDeps,
  command: ProductImagesSyncCommand,
): Promise<ProductImagesSyncResult[]> {
  const full: Required<ProductImagesSyncCommand> = { listKey: 'product_images', ...command };
  const root = `/${full.listKey}`;
  const violations = new ViolationList();
  checkRequest(full.products, root, violations);
  violations.throwIfAny();

  const sources = await obtainImageBytes(deps, full, violations);
  violations.throwIfAny();

  return deps.uow.run(async (tx) => {
    const writeViolations = new ViolationList();
    const aggregates = await productsOf(tx, full.brandId, full.products, root, writeViolations);
    writeViolations.throwIfAny();
    const stored = imagesByProduct(
      await tx.productImages.findByProductIds(
        full.brandId,
        [...aggregates.values()].map((a) => a.product.id),
      ),
    );
    const context = { brandId: full.brandId, now: deps.clock.now(), sources };
    const results: ProductImagesSyncResult[] = [];
    const events: NewDomainEvent<'product.updated'>[] = [];
    for (const item of full.products) {
      const aggregate = aggregates.get(item.itemNumber)!;
      const { result, updated } = await applyToProduct(
        tx,
        context,
        aggregate,
        stored.get(aggregate.product.id) ?? [],
        item,
      );
      results.push(result);
      if (updated) events.push({ type: 'product.updated', object: storedProductForm(updated) });
    }
    await recordEvents(tx, full.brandId, context.now, events);
    return results;
  });
}
