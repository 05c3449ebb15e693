import { DomainError, ViolationList } from '../shared/errors';
import { BlobStore, ImageFetcher } from './image-storage.ports';

/** One image to obtain; `pointer` names the request field that asked for it (`/products/0/images/2/url`). */
export interface ImageDownloadRequest {
  url: string;
  pointer: string;
}

/** Where a downloaded image's bytes now live. */
export interface StoredImage {
  blobKey: string;
  contentType: string;
  sizeBytes: number;
}

/**
 * Downloads each distinct URL once and stores its bytes, outside any transaction (network time
 * must not hold database locks). A failed download becomes a violation at the request's
 * pointer; the caller throws them together with its other checks, so nothing is written.
 */
export async function downloadImages(
  deps: { fetcher: ImageFetcher; blobs: BlobStore },
  requests: ImageDownloadRequest[],
  violations: ViolationList,
): Promise<Map<string, StoredImage>> {
  const stored = new Map<string, StoredImage>();
  const failed = new Map<string, string>();
  for (const { url, pointer } of requests) {
    if (stored.has(url)) continue;
    const earlierFailure = failed.get(url);
    if (earlierFailure !== undefined) {
      violations.add(pointer, earlierFailure);
      continue;
    }
    try {
      const image = await deps.fetcher.fetch(url);
      const blobKey = await deps.blobs.put(image.bytes, image.contentType);
      stored.set(url, { blobKey, contentType: image.contentType, sizeBytes: image.bytes.byteLength });
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'image_download_failed') throw error;
      const message = `could not be downloaded: ${error.message}`;
      failed.set(url, message);
      violations.add(pointer, message);
    }
  }
  return stored;
}
