import { BlobStore, ImageFetcher } from '@brand/core';
import { AppConfig } from '../config';
import { AddressPolicy } from './address-policy';
import { HttpImageFetcher } from './http-image-fetcher';
import { LocalFolderBlobStore } from './local-folder-blob-store';

/** What image syncs need: a way to download images and a place to keep their bytes. */
export interface ImageServices {
  fetcher: ImageFetcher;
  blobs: BlobStore;
}

/** The default image services: the guarded HTTP fetcher and the local folder blob store, from the settings. */
export function imageServicesFrom(settings: AppConfig['images']): ImageServices {
  return {
    fetcher: new HttpImageFetcher({
      timeoutMs: settings.fetchTimeoutMs,
      maxBytes: settings.maxBytes,
      policy: AddressPolicy.withAllowlist(settings.allowedHosts),
    }),
    blobs: new LocalFolderBlobStore(settings.blobDir),
  };
}
