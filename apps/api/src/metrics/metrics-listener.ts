import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Logger } from 'pino';
import { Registry } from 'prom-client';

/** What a scrape answers: the Prometheus text of one process, or of every worker of the machine. */
export type Scrape = () => Promise<string>;

/**
 * The Prometheus listener on its own port (`METRICS_PORT`): `GET /metrics` answers the text
 * format, anything else 404. It is not the API's app, so no token, rate limit or request log
 * applies, and the port can stay inside the machine's network while the API's is public.
 */
export async function listenForScrapes(port: number, scrape: Scrape, logger: Logger): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: the metrics are at GET /metrics\n');
      return;
    }
    scrape().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': Registry.PROMETHEUS_CONTENT_TYPE });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        logger.warn({ err: error }, 'collecting the metrics failed');
        res.writeHead(503, { 'Content-Type': 'text/plain' }).end('The metrics could not be collected; retry\n');
      },
    );
  });
  server.listen(port);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  // The port bound, not the one asked for: with 0 the system picked it.
  logger.info({ port: (server.address() as AddressInfo).port }, 'metrics listening');
  return server;
}
