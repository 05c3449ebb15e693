import { apiErrors } from '../http/api-errors';
import { Surface } from '../http/route';
import { Type, constant } from '../http/wire-schema';

/** How long readiness waits for the database before it answers 503 (DESIGN §17). */
export const READINESS_DEADLINE_MS = 2_000;

/** What the health routes ask of the storage. */
export interface HealthChecks {
  /** Whether the database answers. */
  ping(): Promise<boolean>;
  /** The migrations of this build the database has not run; throws when the database does not answer. */
  pendingMigrations(): Promise<string[]>;
}

/**
 * Whether the database answers within the deadline and its schema is the one this build expects.
 * A check still running is shared by the probes that arrive meanwhile: while the database hangs,
 * a load balancer probing every second must not pile up a query per probe on the pool.
 */
function readinessCheck(checks: HealthChecks): () => Promise<boolean> {
  let running: Promise<boolean> | null = null;
  return async () => {
    running ??= checks
      .pendingMigrations()
      .then((pending) => pending.length === 0)
      .catch(() => false)
      .finally(() => {
        running = null;
      });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), READINESS_DEADLINE_MS);
    });
    try {
      return await Promise.race([running, deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * `/health` (the process and its database answer; kept as it was), `/health/live` (the process
 * answers, nothing else: a failing database is no reason to restart it) and `/health/ready`
 * (the database answers within 2 s and its migrations are current: a load balancer sends
 * requests here). Open to anyone, even in maintenance.
 */
export function healthRouter(checks: HealthChecks): Surface<'none'> {
  const databaseReady = readinessCheck(checks);
  return new Surface('health', 'none', ['/health'])
    .route({
      method: 'get',
      path: '/health',
      summary: 'Health check',
      tag: 'Meta',
      scopes: [],
      status: 200,
      response: {
        description: 'The service and its database answer',
        schema: Type.Object({ status: constant('ok') }),
      },
      handler: async () => {
        const healthy = await checks.ping().catch(() => false);
        if (!healthy) throw apiErrors.storageUnavailable();
        return { status: 'ok' as const };
      },
    })
    .route({
      method: 'get',
      path: '/health/live',
      summary: 'Liveness: the process answers',
      tag: 'Meta',
      scopes: [],
      status: 200,
      response: {
        description: 'The process answers; says nothing about the database (see /health/ready)',
        schema: Type.Object({ status: constant('ok') }),
      },
      handler: () => Promise.resolve({ status: 'ok' as const }),
    })
    .route({
      method: 'get',
      path: '/health/ready',
      summary: 'Readiness: the database answers and its schema is current',
      tag: 'Meta',
      scopes: [],
      status: 200,
      response: {
        description:
          'The database answered within 2 s and has run every migration of this build. Otherwise 503 storage_unavailable with Retry-After. On a full disk the database still serves reads, so this stays 200 (writes answer 503 one by one)',
        schema: Type.Object({ status: constant('ok') }),
      },
      handler: async () => {
        if (!(await databaseReady())) throw apiErrors.storageUnavailable();
        return { status: 'ok' as const };
      },
    });
}
