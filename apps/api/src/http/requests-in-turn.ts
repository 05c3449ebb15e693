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

/** How `requestsInTurn` shares the loop out; the defaults are the server's. */
export interface RequestsInTurnOptions {
  /** Requests that never wait (the health probes). */
  readonly immediately?: (req: IncomingMessage) => boolean;
  /** How long the requests handed over in one turn should keep the loop, in milliseconds. */
  readonly turnBudgetMs?: number;
  /** The most requests handed over in one turn, however cheap they have been. */
  readonly mostPerTurn?: number;
  /** The clock turns are timed with (`performance.now()`); tests give their own. */
  readonly now?: () => number;
}

/** A turn of about 2 ms accepts the connections of a crowd of clients within a fraction of a second. */
const TURN_BUDGET_MS = 2;
const MOST_PER_TURN = 64;
/** How much of the newest turn's timing enters the estimate of a request's cost (the rest is history). */
const ESTIMATE_WEIGHT = 0.25;

/**
 * Hands the requests to `app` in the order they arrived, a short turn of the event loop's worth
 * at a time.
 *
 * Why turns: libuv accepts one new connection per turn of the event loop, and a turn runs every
 * request that became readable before it. A busy server whose established connections keep it
 * saturated then makes each new connection wait for a whole turn of everyone else's requests
 * per connection queued before it: measured on a list of 100 products with their variants at 50
 * connections, the first request of the last connections waited seconds while the others were
 * answered in a fraction of that (docs/decisions/request-pipeline.md, "Requests in turn"). Short
 * turns let connections be accepted as they come, and the queue serves the requests first come,
 * first served whichever connection they came on.
 *
 * Why several per turn: one request per turn made every request pay a turn of its own, its work
 * run in a small piece between two returns to the kernel, and the same work cost far more CPU
 * than handed over together with the others waiting (docs/performance.md, stop 53). How many
 * fit is learnt from the turns themselves: the time from one turn to the next, over the requests
 * it handed over (their work runs between the two), kept as a moving estimate of a request's
 * cost. The first turn hands over one; a page that costs milliseconds keeps it at one.
 *
 * A request that waits here is otherwise untouched: its body stays in its stream until the app
 * reads it. `immediately` names requests that never wait (the health probes: a load balancer
 * must learn promptly whether the process lives, whatever it is doing).
 */
export function requestsInTurn(app: RequestListener, options: RequestsInTurnOptions = {}): RequestListener {
  const { immediately, turnBudgetMs = TURN_BUDGET_MS, mostPerTurn = MOST_PER_TURN } = options;
  const now = options.now ?? (() => performance.now());
  const waiting: [IncomingMessage, ServerResponse][] = [];
  let turnScheduled = false;
  /** Milliseconds of the loop per request handed over, as measured so far. */
  let costPerRequest = turnBudgetMs;
  /** The last turn that handed requests over: when it started and how many (0: none to time). */
  let lastTurnAt = 0;
  let lastTurnHanded = 0;

  const nextTurn = (): void => {
    const startedAt = now();
    if (lastTurnHanded > 0) {
      const measured = (startedAt - lastTurnAt) / lastTurnHanded;
      costPerRequest += (measured - costPerRequest) * ESTIMATE_WEIGHT;
    }
    if (waiting.length === 0) {
      // This turn only timed the last one's requests; the next arrival schedules a turn again.
      turnScheduled = false;
      lastTurnHanded = 0;
      return;
    }
    const share = Math.max(1, Math.min(mostPerTurn, Math.floor(turnBudgetMs / costPerRequest)));
    const handed = waiting.splice(0, share);
    lastTurnAt = startedAt;
    lastTurnHanded = handed.length;
    // The next turn times this one: everything these requests do before it comes is their cost.
    setImmediate(nextTurn);
    for (const [req, res] of handed) app(req, res);
  };

  return (req, res) => {
    if (immediately?.(req)) {
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
