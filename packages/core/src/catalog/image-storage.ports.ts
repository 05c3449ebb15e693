/** Bytes of a downloaded image and the type the server declared (checked against an allowlist). */
export interface FetchedImage {
  bytes: Uint8Array;
  contentType: string;
}

/**
 * Downloads an image URL. Implementations refuse what is unsafe or unsuitable (non-HTTP(S)
 * schemes; loopback, private and link-local targets unless allowlisted; too slow; too large;
 * not an image) by throwing a DomainError `image_download_failed` whose detail says why.
 * @example const { bytes, contentType } = await fetcher.fetch('https://cdn.example.com/a.jpg');
 */
export interface ImageFetcher {
  fetch(url: string): Promise<FetchedImage>;
}

/**
 * Where image bytes live (a local folder by default; object storage in larger set-ups). Keys
 * are content-addressed by the store (e.g. the SHA-256 of the bytes), so storing the same bytes
 * twice is harmless and yields the same key.
 */
export interface BlobStore {
  /** Stores the bytes and returns their key. */
  put(bytes: Uint8Array, contentType: string): Promise<string>;
  get(key: string): Promise<FetchedImage | null>;
  delete(key: string): Promise<void>;
}
