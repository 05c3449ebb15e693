import { createHash } from 'node:crypto';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { greyJpeg, solidPng } from './image-bytes';

/**
 * A local HTTP server standing in for an ERP's or a DAM's image host, on 127.0.0.1 (which the
 * tests allowlist). It serves real image bytes and every way a download can go wrong, and counts
 * the requests per path so tests can tell whether a URL was downloaded again.
 *
 * - `/png/<name>.png`: a small PNG whose colour depends on `<name>` (distinct names, distinct bytes)
 * - `/jpeg/<name>.jpg`: a small JPEG (a COM segment carries `<name>`)
 * - `/slow.png?ms=N`: answers after N ms (default 5000)
 * - `/trickle.png?ms=N`: sends the headers at once, then the body after N ms
 * - `/huge-declared.png`: declares a Content-Length of 50 MiB
 * - `/huge-stream.png?bytes=N`: streams N bytes of a PNG without Content-Length (chunked)
 * - `/html`: text/html; `/svg`: image/svg+xml; `/octet.png`: a PNG as application/octet-stream
 * - `/mislabelled.png`: JPEG bytes declared as image/png
 * - `/redirect?to=<url>`: 302 to `to`; `/redirect-chain/<n>`: n redirects, then a PNG
 * - `/missing.png`: 404
 */
export interface ImageServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  url(path: string): string;
  /** Requests received for a path (without query). */
  hits(path: string): number;
  /** The bytes `/png/<name>.png` and `/jpeg/<name>.jpg` serve. */
  pngBytes(name: string): Buffer;
  jpegBytes(name: string): Buffer;
  close(): Promise<void>;
}

function colourOf(name: string): [number, number, number] {
  const digest = createHash('sha256').update(name).digest();
  return [digest[0]!, digest[1]!, digest[2]!];
}

const pngBytes = (name: string): Buffer => solidPng(2, 2, colourOf(name));
const jpegBytes = (name: string): Buffer => greyJpeg(name);

function send(res: ServerResponse, status: number, contentType: string, body: Buffer | string): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(bytes.length) });
  res.end(bytes);
}

export async function startImageServer(): Promise<ImageServer> {
  const hits = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const ms = Number(url.searchParams.get('ms') ?? 5000);

    let match: RegExpExecArray | null;
    if ((match = /^\/png\/([\w.-]+)\.png$/.exec(path))) return send(res, 200, 'image/png', pngBytes(match[1]!));
    if ((match = /^\/jpeg\/([\w.-]+)\.jpg$/.exec(path)))
      return send(res, 200, 'image/jpeg; charset=binary', jpegBytes(match[1]!));
    if (path === '/slow.png') return later(ms, () => send(res, 200, 'image/png', pngBytes('slow')));
    if (path === '/trickle.png') {
      const body = pngBytes('trickle');
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(body.length) });
      res.write(body.subarray(0, 8));
      return later(ms, () => res.end(body.subarray(8)));
    }
    if (path === '/huge-declared.png') {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(50 * 1024 * 1024) });
      res.write(pngBytes('huge'));
      return undefined; // never finishes: the client must give up on the header alone
    }
    if (path === '/huge-stream.png') {
      const total = Number(url.searchParams.get('bytes') ?? 1024 * 1024);
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.write(pngBytes('huge'));
      let sent = 0;
      const block = Buffer.alloc(16 * 1024, 0x41);
      const pump = (): void => {
        while (sent < total && !res.destroyed) {
          sent += block.length;
          if (!res.write(block)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      pump();
      return undefined;
    }
    if (path === '/html') return send(res, 200, 'text/html; charset=utf-8', '<html><body>not an image</body></html>');
    if (path === '/svg')
      return send(res, 200, 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    if (path === '/octet.png') return send(res, 200, 'application/octet-stream', pngBytes('octet'));
    if (path === '/mislabelled.png') return send(res, 200, 'image/png', jpegBytes('mislabelled'));
    if (path === '/redirect') {
      res.writeHead(302, { Location: url.searchParams.get('to') ?? '/' });
      res.end();
      return undefined;
    }
    if ((match = /^\/redirect-chain\/(\d+)$/.exec(path))) {
      const left = Number(match[1]);
      res.writeHead(
        left > 0 ? 301 : 200,
        left > 0 ? { Location: `/redirect-chain/${left - 1}` } : { 'Content-Type': 'image/png' },
      );
      res.end(left > 0 ? undefined : pngBytes('chain'));
      return undefined;
    }
    return send(res, 404, 'text/plain', 'not found');
  };

  const server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (path) => `${origin}${path}`,
    hits: (path) => hits.get(path) ?? 0,
    pngBytes,
    jpegBytes,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
