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
  await Promise.all(
    claims.map(async ({ brandId, id }) => {
      const claimed = await loadClaim(deps.uow, brandId, id);
      if (!claimed) return;
      const outcome = await attempt(deps, claimed);
      const recorded = await record(deps, claimed, outcome, input.owner);
      if (recorded) pass[recorded] += 1;
    }),
  );
  return pass;
}

async function loadClaim(
  uow: UnitOfWork<DispatchRepositories>,
  brandId: number,
  id: number,
): Promise<(Omit<ClaimedDelivery, 'event' | 'endpoint'> & Partial<ClaimedDelivery>) | null> {
  return uow.read(async (repos) => {
    const [delivery] = await repos.webhookDeliveries.findByIds(brandId, [id]);
    if (!delivery) return null;
    const [[event], [endpoint]] = await Promise.all([
      repos.events.findByIds(brandId, [delivery.eventId]),
      repos.webhookEndpoints.findByIds(brandId, [delivery.endpointId]),
    ]);
    return { delivery, ...(event ? { event } : {}), ...(endpoint ? { endpoint } : {}) };
  });
}

type Loaded = Awaited<ReturnType<typeof loadClaim>> & object;

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
  { delivery, endpoint }: Loaded,
  outcome: WebhookAttemptOutcome | { skipped: string },
  owner: string,
): Promise<'succeeded' | 'retrying' | 'failed' | null> {
  const now = deps.clock.now();
  const base = { ...delivery, updatedAt: now };
  let next: WebhookDelivery;
  let gone = false;
  if ('skipped' in outcome) {
    next = { ...base, status: 'failed', lastError: outcome.skipped, nextAttemptAt: null };
  } else if (outcome.delivered) {
    next = {
      ...base,
      status: 'succeeded',
      attempts: delivery.attempts + 1,
      lastStatusCode: outcome.statusCode,
      lastError: null,
      nextAttemptAt: null,
    };
  } else {
    const attempts = delivery.attempts + 1;
    gone = outcome.statusCode === 410;
    const due = gone ? null : nextAttemptAt(deps.retrySchedule, attempts, now, (deps.random ?? Math.random)());
    next = {
      ...base,
      status: due === null ? 'failed' : 'pending',
      attempts,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error.slice(0, 500),
      nextAttemptAt: due,
    };
  }
  const recorded = await deps.uow.run(async (tx) => {
    if (!(await tx.webhookDeliveries.recordAttempt(next, owner))) return false;
    if (endpoint && !('skipped' in outcome)) {
      // Read again inside the transaction: other attempts to the endpoint record their outcome too.
      const [current] = await tx.webhookEndpoints.findByIds(endpoint.brandId, [endpoint.id]);
      const changed = current ? endpointAfter(current, outcome.delivered, gone, now) : null;
      if (changed) await tx.webhookEndpoints.save(changed);
    }
    return true;
  });
  if (!recorded) return null;
  return next.status === 'succeeded' ? 'succeeded' : next.status === 'failed' ? 'failed' : 'retrying';
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
