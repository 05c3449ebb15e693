import { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * When a request reached the server, kept on the request itself for requests that waited their
 * turn (see `requestsInTurn`): a weak map would do as well, at the cost of an entry the collector
 * must trace for every request.
 */
const ARRIVAL = Symbol('arrival');

type ArrivedRequest = IncomingMessage & { [ARRIVAL]?: number };

/** When `req` reached the server (`performance.now()`), if it waited its turn; else undefined. */
export function arrivalOf(req: IncomingMessage): number | undefined {
  return (req as ArrivedRequest)[ARRIVAL];
}

/**
 * Hands the requests to `app` in the order they arrived, one per turn of the event loop.
 *
 * Why: libuv accepts one new connection per turn of the event loop, and a turn runs every
 * request that became readable before it. A busy server whose established connections keep it
 * saturated then makes each new connection wait for a whole turn of everyone else's requests
 * per connection queued before it: measured on a list of 100 products with their variants at 50
 * connections, the first request of the last connections waited seconds while the others were
 * answered in a fraction of that (docs/decisions/request-pipeline.md, "Requests in turn"). One
 * request per turn keeps the turns short, so connections are accepted as they come, and the
 * queue serves the requests first come, first served whichever connection they came on.
 *
 * A request that waits here is otherwise untouched: its body stays in its stream until the app
 * reads it. `immediately` names requests that never wait (the health probes: a load balancer
 * must learn promptly whether the process lives, whatever it is doing).
 */
export function requestsInTurn(
  app: RequestListener,
  options: { immediately?: (req: IncomingMessage) => boolean } = {},
): RequestListener {
  const waiting: [IncomingMessage, ServerResponse][] = [];
  let turnScheduled = false;

  const nextTurn = (): void => {
    const [req, res] = waiting.shift()!;
    if (waiting.length > 0) setImmediate(nextTurn);
    else turnScheduled = false;
    app(req, res);
  };

  return (req, res) => {
    if (options.immediately?.(req)) {
      app(req, res);
      return;
    }
    (req as ArrivedRequest)[ARRIVAL] = performance.now();
    waiting.push([req, res]);
    if (turnScheduled) return;
    turnScheduled = true;
    setImmediate(nextTurn);
  };
}

/** The health probes (`/health`, `/health/live`, `/health/ready`), which never wait their turn. */
export const isHealthProbe = (req: IncomingMessage): boolean =>
  req.url !== undefined && /^\/health(\/(live|ready))?(\?|$)/.test(req.url);
