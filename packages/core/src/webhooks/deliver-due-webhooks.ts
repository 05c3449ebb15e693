import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { nextAttemptAt } from './retry-schedule';
import { WebhookAttemptOutcome, WebhookSender } from './webhook-sender.ports';
import { ClaimedDelivery, FAILING_DAYS_BEFORE_DISABLE, WebhookDelivery, WebhookEndpoint } from './webhook.entities';

const DAY_MS = 24 * 60 * 60 * 1000;

type DispatchRepositories = Pick<Repositories, 'events' | 'webhookDeliveries' | 'webhookEndpoints'>;

/** What one dispatcher pass did. */
export interface DispatchPass {
  claimed: number;
  succeeded: number;
  /** Failed attempts that will be tried again. */
  retrying: number;
  /** Deliveries given up (schedule used up, 410 Gone, endpoint gone). */
  failed: number;
}

/** The secrets a delivery is signed with now: the endpoint's, and the rotated one until it lapses. */
export function signingSecrets(endpoint: WebhookEndpoint, now: string): string[] {
  const previousValid =
    endpoint.previousSecret !== null &&
    endpoint.previousSecretExpiresAt !== null &&
    endpoint.previousSecretExpiresAt > now;
  return previousValid ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

/**
 * One pass of the webhook dispatcher (DESIGN §10): claims the due deliveries (a lease of
 * `leaseMs`, so other dispatchers skip them), sends each outside any transaction, and records the
 * outcome if the claim still holds: a 2xx succeeds; `410 Gone` fails the delivery and disables the
 * endpoint; anything else is tried again on the schedule (with jitter) until the schedule is used
 * up, then fails. A delivery whose endpoint was deleted or disabled, or whose event expired,
 * fails without an attempt. A dispatcher that dies mid-pass leaves its claims to lapse: the
 * deliveries are sent again (at least once; receivers deduplicate on `webhook-id`).
 */
export async function deliverDueWebhooks(
  deps: {
    uow: UnitOfWork<DispatchRepositories>;
    clock: Clock;
    sender: WebhookSender;
    retrySchedule: readonly number[];
    /** A number in [0, 1) for the jitter; Math.random by default. */
    random?: () => number;
  },
  input: { owner: string; leaseMs: number; limit: number },
): Promise<DispatchPass> {
  const now = deps.clock.now();
  const until = new Date(Date.parse(now) + input.leaseMs).toISOString();
  const claims = await deps.uow.run((tx) =>
    tx.webhookDeliveries.claimDue(now, { owner: input.owner, until }, input.limit),
  );
  const pass: DispatchPass = { claimed: claims.length, succeeded: 0, retrying: 0, failed: 0 };
  if (claims.length === 0) return pass;
  // One read for the whole pass, the attempts side by side, one transaction for their outcomes:
  // a busy endpoint costs the database three statements per pass, not per delivery.
  const loaded = await loadClaims(deps.uow, claims);
  const outcomes = await Promise.all(loaded.map((claim) => attempt(deps, claim)));
  const results = await record(deps, loaded, outcomes, input.owner);
  for (const result of results) if (result) pass[result] += 1;
  return pass;
}

/** A claimed delivery with its event and endpoint (either may be gone by now). */
type Loaded = Omit<ClaimedDelivery, 'event' | 'endpoint'> & Partial<ClaimedDelivery>;

async function loadClaims(
  uow: UnitOfWork<DispatchRepositories>,
  claims: { brandId: number; id: number }[],
): Promise<Loaded[]> {
  const byBrand = new Map<number, number[]>();
  for (const { brandId, id } of claims) byBrand.set(brandId, [...(byBrand.get(brandId) ?? []), id]);
  return uow.read(async (repos) => {
    const loaded: Loaded[] = [];
    for (const [brandId, ids] of byBrand) {
      const deliveries = await repos.webhookDeliveries.findByIds(brandId, ids);
      const [events, endpoints] = await Promise.all([
        repos.events.findByIds(
          brandId,
          deliveries.map((d) => d.eventId),
        ),
        repos.webhookEndpoints.findByIds(
          brandId,
          deliveries.map((d) => d.endpointId),
        ),
      ]);
      const eventById = new Map(events.map((e) => [e.id, e]));
      const endpointById = new Map(endpoints.map((e) => [e.id, e]));
      for (const delivery of deliveries) {
        const event = eventById.get(delivery.eventId);
        const endpoint = endpointById.get(delivery.endpointId);
        loaded.push({ delivery, ...(event ? { event } : {}), ...(endpoint ? { endpoint } : {}) });
      }
    }
    return loaded;
  });
}

async function attempt(
  deps: { clock: Clock; sender: WebhookSender },
  { event, endpoint }: Loaded,
): Promise<WebhookAttemptOutcome | { skipped: string }> {
  if (!endpoint) return { skipped: 'the endpoint was deleted' };
  if (!endpoint.enabled) return { skipped: 'the endpoint is disabled' };
  if (!event) return { skipped: 'the event expired' };
  const now = deps.clock.now();
  return deps.sender.send({
    url: endpoint.url,
    event,
    secrets: signingSecrets(endpoint, now),
    timestamp: Math.floor(Date.parse(now) / 1000),
  });
}

async function record(
  deps: {
    uow: UnitOfWork<DispatchRepositories>;
    clock: Clock;
    retrySchedule: readonly number[];
    random?: () => number;
  },
  loaded: Loaded[],
  outcomes: (WebhookAttemptOutcome | { skipped: string })[],
  owner: string,
): Promise<('succeeded' | 'retrying' | 'failed' | null)[]> {
  const now = deps.clock.now();
  const planned = loaded.map(({ delivery }, i) => nextState(deps, delivery, outcomes[i]!, now));
  return deps.uow.run(async (tx) => {
    const results: ('succeeded' | 'retrying' | 'failed' | null)[] = [];
    // Endpoints as the attempts of this pass leave them, read inside the transaction: other
    // dispatchers record outcomes for the same endpoints too.
    const endpoints = new Map<string, { current: WebhookEndpoint; changed: boolean }>();
    for (const [i, { next, gone }] of planned.entries()) {
      if (!(await tx.webhookDeliveries.recordAttempt(next, owner))) {
        results.push(null);
        continue;
      }
      results.push(next.status === 'succeeded' ? 'succeeded' : next.status === 'failed' ? 'failed' : 'retrying');
      const outcome = outcomes[i]!;
      const endpoint = loaded[i]!.endpoint;
      if (!endpoint || 'skipped' in outcome) continue;
      const key = `${endpoint.brandId}:${endpoint.id}`;
      let entry = endpoints.get(key);
      if (!entry) {
        const [current] = await tx.webhookEndpoints.findByIds(endpoint.brandId, [endpoint.id]);
        if (!current) continue;
        entry = { current, changed: false };
        endpoints.set(key, entry);
      }
      const after = endpointAfter(entry.current, outcome.delivered, gone, now);
      if (after) Object.assign(entry, { current: after, changed: true });
    }
    for (const { current, changed } of endpoints.values()) if (changed) await tx.webhookEndpoints.save(current);
    return results;
  });
}

/** The delivery after its attempt (or after being skipped), and whether the receiver said 410 Gone. */
function nextState(
  deps: { retrySchedule: readonly number[]; random?: () => number },
  delivery: WebhookDelivery,
  outcome: WebhookAttemptOutcome | { skipped: string },
  now: string,
): { next: WebhookDelivery; gone: boolean } {
  const base = { ...delivery, updatedAt: now };
  if ('skipped' in outcome)
    return { next: { ...base, status: 'failed', lastError: outcome.skipped, nextAttemptAt: null }, gone: false };
  if (outcome.delivered)
    return {
      next: {
        ...base,
        status: 'succeeded',
        attempts: delivery.attempts + 1,
        lastStatusCode: outcome.statusCode,
        lastError: null,
        nextAttemptAt: null,
      },
      gone: false,
    };
  const attempts = delivery.attempts + 1;
  const gone = outcome.statusCode === 410;
  const due = gone ? null : nextAttemptAt(deps.retrySchedule, attempts, now, (deps.random ?? Math.random)());
  return {
    next: {
      ...base,
      status: due === null ? 'failed' : 'pending',
      attempts,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error.slice(0, 500),
      nextAttemptAt: due,
    },
    gone,
  };
}

/**
 * The endpoint after an attempt, or null when it does not change: a success ends a failing
 * streak; a failure starts one, and a streak of failures only for `FAILING_DAYS_BEFORE_DISABLE`
 * days disables the endpoint, as does `410 Gone` at once (the receiver says it is no more).
 */
function endpointAfter(
  endpoint: WebhookEndpoint,
  delivered: boolean,
  gone: boolean,
  now: string,
): WebhookEndpoint | null {
  if (delivered) return endpoint.failingSince === null ? null : { ...endpoint, failingSince: null };
  const failingSince = endpoint.failingSince ?? now;
  const tooLong = Date.parse(now) - Date.parse(failingSince) >= FAILING_DAYS_BEFORE_DISABLE * DAY_MS;
  const enabled = endpoint.enabled && !gone && !tooLong;
  if (failingSince === endpoint.failingSince && enabled === endpoint.enabled) return null;
  return { ...endpoint, failingSince, enabled, updatedAt: enabled === endpoint.enabled ? endpoint.updatedAt : now };
}
