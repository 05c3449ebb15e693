import http, { IncomingMessage } from 'node:http';
import https from 'node:https';
import { DomainError, FetchedImage, ImageFetcher } from '@brand/core';
import { AddressPolicy } from './address-policy';
import {
  HostResolver,
  TargetRefused,
  VettedTarget,
  networkFailure,
  pinnedLookup,
  systemResolver,
  vetTarget,
} from './guarded-connection';
import { ACCEPTED_CONTENT_TYPES, imageTypeOf } from './image-types';

export type { HostResolver } from './guarded-connection';

export interface HttpImageFetcherOptions {
  /** The whole download (name resolution, every redirect, the body) must finish within this. */
  timeoutMs: number;
  /** Largest image accepted, in bytes. */
  maxBytes: number;
  /** Which targets may be reached; private and special-purpose addresses only when allowlisted. */
  policy: AddressPolicy;
  /** Redirects followed before giving up (default 3). */
  maxRedirects?: number;
  resolve?: HostResolver;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'BrandCommercePlatform-ImageFetcher/1.0';

function refuse(reason: string): never {
  throw new DomainError('image_download_failed', reason);
}

/**
 * Downloads product images over HTTP(S) without letting an integrator's URL reach what it must
 * not: only http and https; the host is resolved once and every address it resolves to must be
 * an ordinary internet address (or allowlisted), and the connection is pinned to the checked
 * address; at most `maxRedirects` redirects, each checked the same way; one deadline for the
 * whole download; a size cap checked against Content-Length and while reading; the declared
 * type must be an accepted image type and the bytes must be of that type. Every refusal is a
 * DomainError `image_download_failed` saying why.
 */
export class HttpImageFetcher implements ImageFetcher {
  private readonly maxRedirects: number;
  private readonly resolve: HostResolver;

  constructor(private readonly options: HttpImageFetcherOptions) {
    this.maxRedirects = options.maxRedirects ?? 3;
    this.resolve = options.resolve ?? systemResolver;
  }

  async fetch(url: string): Promise<FetchedImage> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('deadline')), this.options.timeoutMs);
    try {
      let current = this.parse(url, 'the URL');
      for (let redirects = 0; ; redirects += 1) {
        const target = await this.vet(current, controller.signal);
        const response = await this.request(target, controller.signal);
        const status = response.statusCode ?? 0;
        if (REDIRECT_STATUSES.has(status)) {
          response.destroy();
          const location = response.headers.location;
          if (!location) refuse(`the server answered ${status} without a Location header`);
          if (redirects >= this.maxRedirects) refuse(`it redirected more than ${this.maxRedirects} times`);
          current = this.parse(new URL(location, current).toString(), 'a redirect');
          continue;
        }
        return await this.readImage(response, controller.signal);
      }
    } catch (error) {
      if (controller.signal.aborted) refuse(`the download did not finish within ${this.options.timeoutMs} ms`);
      if (error instanceof DomainError) throw error;
      refuse(networkFailure(error));
    } finally {
      clearTimeout(timer);
    }
  }

  private parse(text: string, what: string): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return refuse(`${what} is not a valid absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      refuse(`${what} uses the scheme ${url.protocol.slice(0, -1)}; only http and https are allowed`);
    if (url.username !== '' || url.password !== '') refuse(`${what} carries credentials; use a publicly available URL`);
    return url;
  }

  /** Resolves the host and checks every address it resolves to; the connection will use the first. */
  private async vet(url: URL, signal: AbortSignal): Promise<VettedTarget> {
    try {
      return await vetTarget(url, this.options.policy, this.resolve, signal);
    } catch (error) {
      if (error instanceof TargetRefused) refuse(error.reason);
      throw error;
    }
  }

  private request(target: VettedTarget, signal: AbortSignal): Promise<IncomingMessage> {
    const { url, address, family } = target;
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const request = client.request(
        {
          method: 'GET',
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          headers: { Accept: ACCEPTED_CONTENT_TYPES, 'Accept-Encoding': 'identity', 'User-Agent': USER_AGENT },
          // A fresh connection per download: no pooled socket of another lookup is reused.
          agent: false,
          lookup: pinnedLookup(address, family),
          signal,
        },
        resolve,
      );
      request.on('error', reject);
      request.end();
    });
  }

  private async readImage(response: IncomingMessage, signal: AbortSignal): Promise<FetchedImage> {
    const status = response.statusCode ?? 0;
    const { maxBytes } = this.options;
    try {
      if (status !== 200)
        refuse(`the server answered ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`);
      const declared = response.headers['content-type'];
      if (/^\s*image\/svg\+xml/i.test(declared ?? ''))
        refuse(`SVG images are not accepted (they can carry scripts); send one of ${ACCEPTED_CONTENT_TYPES}`);
      const type = imageTypeOf(declared);
      if (!type)
        refuse(
          `the server sent Content-Type ${declared ? JSON.stringify(declared) : '(none)'}, not one of ${ACCEPTED_CONTENT_TYPES}`,
        );
      const length = Number(response.headers['content-length']);
      if (Number.isFinite(length) && length > maxBytes)
        refuse(`the image is ${length} bytes, more than the limit of ${maxBytes}`);

      const chunks: Buffer[] = [];
      let received = 0;
      for await (const chunk of response as AsyncIterable<Buffer>) {
        received += chunk.length;
        if (received > maxBytes) refuse(`the image is larger than the limit of ${maxBytes} bytes`);
        chunks.push(chunk);
      }
      if (signal.aborted) throw signal.reason;
      const bytes = new Uint8Array(Buffer.concat(chunks, received));
      if (!type.matches(bytes))
        refuse(`the server declared ${type.contentType}, but the bytes are not a ${type.label} image`);
      return { bytes, contentType: type.contentType };
    } finally {
      // Stops reading (and closes the connection) when the body is refused part-way.
      response.destroy();
    }
  }
}
