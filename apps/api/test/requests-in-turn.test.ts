import { IncomingMessage, RequestListener, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { arrivalOf, isHealthProbe, requestsInTurn } from '../src/http/requests-in-turn';

/** A request as the server hands it to its listener: only the URL matters here. */
const aRequest = (url: string): IncomingMessage => ({ url }) as IncomingMessage;
const aResponse = (): ServerResponse => ({}) as ServerResponse;

/** Counts turns of the event loop: one step per check phase, for as long as the test runs. */
function turnCounter(): { current(): number; stop(): void } {
  let turn = 0;
  let running = true;
  const tick = (): void => {
    turn += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { current: () => turn, stop: () => (running = false) };
}

const turnsPassed = (turns: number): Promise<void> =>
  new Promise((resolve) => {
    const step = (left: number): void => (left === 0 ? resolve() : void setImmediate(() => step(left - 1)));
    step(turns);
  });

describe('requests in turn', () => {
  /**
   * Hands `count` requests to a listener whose every request advances a fake clock by `costMs`,
   * and gives the turn each one was handed over in.
   */
  async function handOver(count: number, costMs: number, options: { mostPerTurn?: number } = {}) {
    const turns = turnCounter();
    let clock = 0;
    const handled: { url: string; turn: number }[] = [];
    const listener = requestsInTurn(
      (req) => {
        handled.push({ url: req.url!, turn: turns.current() });
        clock += costMs;
      },
      { now: () => clock, turnBudgetMs: 2, ...options },
    );
    const urls = Array.from({ length: count }, (_, i) => `/v10/orders/${i}`);
    for (const url of urls) listener(aRequest(url), aResponse());
    // None runs while the requests are read: they wait for the next turn.
    expect(handled).toEqual([]);
    await turnsPassed(count + 10);
    turns.stop();
    const perTurn = [
      ...handled.reduce((m, h) => m.set(h.turn, (m.get(h.turn) ?? 0) + 1), new Map<number, number>()).values(),
    ];
    return { urls, handled: handled.map((h) => h.url), perTurn };
  }

  it('hands costly requests to the app one per turn, in the order they arrived', async () => {
    const { urls, handled, perTurn } = await handOver(6, 5);
    expect(handled).toEqual(urls);
    // Each takes longer than a turn's budget, so a turn never runs more than one of them.
    expect(perTurn).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('hands cheap requests over several a turn once it has timed them, still in order', async () => {
    const { urls, handled, perTurn } = await handOver(200, 0.125);
    expect(handled).toEqual(urls);
    // Untimed, the first turn hands one over; at 0.125 ms a request, 2 ms of turn fits 16, and the
    // estimate nears that from above (it learns from the turns, a quarter of each).
    expect(perTurn[0]).toBe(1);
    expect(Math.max(...perTurn)).toBeGreaterThanOrEqual(14);
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(16);
    expect(perTurn.length).toBeLessThan(40);
  });

  it('never hands more than the most per turn, however cheap the requests', async () => {
    const { handled, perTurn } = await handOver(100, 0, { mostPerTurn: 8 });
    expect(handled).toHaveLength(100);
    expect(Math.max(...perTurn)).toBe(8);
  });

  it('lets health probes through at once, ahead of the waiting requests', async () => {
    const handled: string[] = [];
    const listener = requestsInTurn((req) => handled.push(req.url!), { immediately: isHealthProbe });
    listener(aRequest('/v10/orders'), aResponse());
    listener(aRequest('/health/ready'), aResponse());
    listener(aRequest('/health/live'), aResponse());
    listener(aRequest('/health'), aResponse());
    expect(handled).toEqual(['/health/ready', '/health/live', '/health']);
    await turnsPassed(3);
    expect(handled).toEqual(['/health/ready', '/health/live', '/health', '/v10/orders']);
  });

  it('tells only real probes from other paths', () => {
    for (const url of ['/health', '/health/live', '/health/ready', '/health/ready?verbose=1'])
      expect(isHealthProbe(aRequest(url))).toBe(true);
    for (const url of ['/healthy', '/health/livez', '/v10/health', '/health/ready/x'])
      expect(isHealthProbe(aRequest(url))).toBe(false);
  });

  it('keeps when a waiting request arrived, so its time includes the wait', async () => {
    const arrived: (number | undefined)[] = [];
    const listener = requestsInTurn((req) => arrived.push(arrivalOf(req)), { immediately: isHealthProbe });
    const before = performance.now();
    listener(aRequest('/v10/orders'), aResponse());
    listener(aRequest('/health'), aResponse());
    await turnsPassed(3);
    // The probe did not wait, so it has no arrival of its own; the order has the instant it came.
    expect(arrived[0]).toBeUndefined();
    expect(arrived[1]).toBeGreaterThanOrEqual(before);
    expect(arrived[1]).toBeLessThanOrEqual(performance.now());
  });

  it('serves every connection of a real server while one request holds the event loop', async () => {
    // A listener that keeps the loop busy for a while per request, as a heavy page does.
    const busy: RequestListener = (req, res) => {
      const until = performance.now() + 5;
      while (performance.now() < until);
      res.end(req.url);
    };
    const server = createServer(requestsInTurn(busy)).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => fetch(`http://127.0.0.1:${port}/n/${i}`).then((r) => r.text())),
      );
      expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => `/n/${i}`));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
