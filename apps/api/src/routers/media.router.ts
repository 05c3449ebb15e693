import { Request } from 'express';
import { BlobStore, DomainError } from '@brand/core';
import { Surface } from '../http/route';
import { IMAGE_TYPES } from '../infrastructure/image-types';
import { isBlobKey } from '../infrastructure/local-folder-blob-store';
import { MediaUrl } from '../presenters/product-image.presenter';

/** Where stored images are served; the rest of the path is the blob key. */
export const MEDIA_PREFIX = '/media';

/** Public image URLs: on the configured origin, else on the origin the request came in on. */
export function mediaUrlFor(req: Request, mediaBaseUrl: string | null): MediaUrl {
  const base = mediaBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  return (blobKey) => `${base}${MEDIA_PREFIX}/${blobKey}`;
}

/** One year: a key is the hash of its bytes, so what is behind a URL never changes. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * `GET /media/<key>`: the stored images, without a token (storefronts and browsers load them
 * directly; keys are content hashes that cannot be guessed or enumerated). Served with the stored
 * type, `nosniff` and a sandboxing CSP (so no stored file can run as a page of this origin), and
 * cached for a year.
 */
export function mediaRouter(deps: { blobs: BlobStore }): Surface<'none'> {
  return new Surface('media', 'none', [MEDIA_PREFIX]).route({
    method: 'get',
    path: `${MEDIA_PREFIX}/*key`,
    summary: 'A stored image',
    description: 'The bytes of an image stored by an image sync, under the URL the sync answered with. Needs no token.',
    tag: 'Media',
    scopes: [],
    status: 200,
    response: {
      description:
        'The image bytes, with their Content-Type (image/jpeg, image/png, image/gif, image/webp or image/avif)',
      binary: IMAGE_TYPES.map((type) => type.contentType),
      also: { status: 304, description: 'Not modified: the If-None-Match ETag is the image', bodyless: true },
    },
    handler: async ({ params, req, res }) => {
      const raw = (params as Record<string, string | string[]>)['key'];
      const key = Array.isArray(raw) ? raw.join('/') : (raw ?? '');
      const image = isBlobKey(key) ? await deps.blobs.get(key) : null;
      if (!image) throw DomainError.notFound('image', key);
      // The key names the bytes' SHA-256, so it is a strong validator as it stands.
      const etag = `"${key.slice(key.lastIndexOf('/') + 1)}"`;
      res.setHeader('Cache-Control', CACHE_CONTROL);
      res.setHeader('ETag', etag);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.setHeader('Access-Control-Allow-Origin', '*');
      const cached = (req.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
      if (cached.includes(etag) || cached.includes('*')) {
        res.status(304).end();
        return undefined;
      }
      res.setHeader('Content-Type', image.contentType);
      res.setHeader('Content-Length', String(image.bytes.byteLength));
      res.status(200).end(Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength));
      return undefined;
    },
  });
}
