import { DomainError } from '@brand/core';
import { AddressPolicy } from '../../src/infrastructure/address-policy';
import { HttpImageFetcher, HttpImageFetcherOptions } from '../../src/infrastructure/http-image-fetcher';
import { ImageServer, startImageServer } from './support/image-server';

// Downloads touch no storage, so this file does not loop over dialects.
describe('HTTP image fetcher', () => {
  let server: ImageServer;

  beforeAll(async () => {
    server = await startImageServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const fetcher = (options: Partial<HttpImageFetcherOptions> = {}) =>
    new HttpImageFetcher({
      timeoutMs: 2000,
      maxBytes: 64 * 1024,
      policy: AddressPolicy.withAllowlist(['127.0.0.1']),
      ...options,
    });

  /** The reason a download was refused. */
  async function refusal(download: Promise<unknown>): Promise<string> {
    try {
      await download;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'image_download_failed') return error.message;
      throw error;
    }
    throw new Error('expected the download to be refused');
  }

  it('downloads a PNG and returns exactly the bytes served, with their type', async () => {
    const image = await fetcher().fetch(server.url('/png/front.png'));
    expect(image.contentType).toBe('image/png');
    expect(Buffer.from(image.bytes).equals(server.pngBytes('front'))).toBe(true);
  });

  it('downloads a JPEG whose Content-Type carries parameters', async () => {
    const image = await fetcher().fetch(server.url('/jpeg/back.jpg'));
    expect(image.contentType).toBe('image/jpeg');
    expect(Buffer.from(image.bytes).equals(server.jpegBytes('back'))).toBe(true);
  });

  it('refuses 127.0.0.1 when it is not allowlisted, without connecting', async () => {
    const before = server.hits('/png/private.png');
    expect(
      await refusal(fetcher({ policy: AddressPolicy.withAllowlist([]) }).fetch(server.url('/png/private.png'))),
    ).toMatch(/loopback address/);
    expect(server.hits('/png/private.png')).toBe(before);
  });

  it('refuses localhost by name, since it resolves to a loopback address', async () => {
    const url = `http://localhost:${server.port}/png/by-name.png`;
    expect(await refusal(fetcher({ policy: AddressPolicy.withAllowlist([]) }).fetch(url))).toMatch(/loopback address/);
  });

  it('refuses a host that resolves to any refused address, and connects to the vetted address only', async () => {
    const mixed = fetcher({
      policy: AddressPolicy.withAllowlist([]),
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.8', family: 4 },
      ],
    });
    expect(await refusal(mixed.fetch('http://images.example.com/a.png'))).toMatch(/private network address/);

    // DNS rebinding: the name is resolved once, and the connection goes to that answer even
    // though the system resolver would say something else for images.example.test.
    const pinned = fetcher({
      policy: AddressPolicy.withAllowlist(['images.example.test']),
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    const image = await pinned.fetch(`http://images.example.test:${server.port}/png/pinned.png`);
    expect(Buffer.from(image.bytes).equals(server.pngBytes('pinned'))).toBe(true);
  });

  it.each([
    ['ftp://127.0.0.1/a.png', /scheme ftp/],
    ['file:///etc/passwd', /scheme file/],
    ['data:image/png;base64,iVBORw0KGgo=', /scheme data/],
    ['not a url', /not a valid absolute URL/],
    ['http://user:secret@127.0.0.1/a.png', /credentials/],
  ])('refuses %s', async (url, reason) => {
    expect(await refusal(fetcher().fetch(url))).toMatch(reason);
  });

  it('gives up when the server does not answer in time', async () => {
    // The server would answer after 30 s: giving up well before that is the deadline at work,
    // however slow a busy machine makes the 300 ms.
    const started = Date.now();
    expect(await refusal(fetcher({ timeoutMs: 300 }).fetch(server.url('/slow.png?ms=30000')))).toMatch(
      /did not finish within 300 ms/,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('gives up when the body does not arrive in time (the deadline covers the whole download)', async () => {
    expect(await refusal(fetcher({ timeoutMs: 300 }).fetch(server.url('/trickle.png?ms=3000')))).toMatch(
      /did not finish within 300 ms/,
    );
  });

  it('refuses an image whose Content-Length exceeds the limit before reading it', async () => {
    expect(await refusal(fetcher().fetch(server.url('/huge-declared.png')))).toMatch(
      /is 52428800 bytes, more than the limit of 65536/,
    );
  });

  it('stops reading a body without Content-Length once it passes the limit', async () => {
    expect(await refusal(fetcher().fetch(server.url('/huge-stream.png?bytes=5000000')))).toMatch(
      /larger than the limit of 65536 bytes/,
    );
  });

  it.each([
    ['/html', /Content-Type "text\/html; charset=utf-8", not one of image\/jpeg/],
    ['/octet.png', /Content-Type "application\/octet-stream"/],
    ['/svg', /SVG images are not accepted/],
    ['/mislabelled.png', /declared image\/png, but the bytes are not a PNG image/],
  ])('refuses %s, which is not an accepted image', async (path, reason) => {
    expect(await refusal(fetcher().fetch(server.url(path)))).toMatch(reason);
  });

  it('refuses a 404 naming the status', async () => {
    expect(await refusal(fetcher().fetch(server.url('/missing.png')))).toMatch(/the server answered 404 Not Found/);
  });

  it('follows up to 3 redirects, and refuses the 4th', async () => {
    const image = await fetcher().fetch(server.url('/redirect-chain/3'));
    expect(Buffer.from(image.bytes).equals(server.pngBytes('chain'))).toBe(true);
    expect(await refusal(fetcher().fetch(server.url('/redirect-chain/4')))).toMatch(/redirected more than 3 times/);
  });

  it('checks every redirect target: a redirect to a private or metadata address is refused', async () => {
    const to = (target: string) => server.url(`/redirect?to=${encodeURIComponent(target)}`);
    expect(await refusal(fetcher().fetch(to('http://169.254.169.254/latest/meta-data/')))).toMatch(
      /link-local address/,
    );
    expect(await refusal(fetcher().fetch(to('http://10.0.0.1/image.png')))).toMatch(/private network address/);
    expect(await refusal(fetcher().fetch(to('http://[::1]/image.png')))).toMatch(/loopback address/);
    expect(await refusal(fetcher().fetch(to('file:///etc/passwd')))).toMatch(/a redirect uses the scheme file/);
  });

  it('follows a relative redirect on an allowed host', async () => {
    const image = await fetcher().fetch(server.url(`/redirect?to=${encodeURIComponent('/png/moved.png')}`));
    expect(Buffer.from(image.bytes).equals(server.pngBytes('moved'))).toBe(true);
  });

  it('reports a refused connection as a download failure', async () => {
    const closed = await startImageServer();
    const url = closed.url('/png/gone.png');
    await closed.close();
    expect(await refusal(fetcher().fetch(url))).toMatch(/the connection failed \(ECONNREFUSED\)/);
  });

  it('reports a host that does not resolve', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND no-such-host.invalid'), { code: 'ENOTFOUND' });
    const unresolvable = fetcher({ resolve: async () => Promise.reject(notFound) });
    expect(await refusal(unresolvable.fetch('http://no-such-host.invalid/a.png'))).toMatch(
      /its host no-such-host.invalid does not resolve/,
    );
  });
});
