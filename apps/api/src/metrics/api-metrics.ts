import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { StorageObserver } from '@brand/persistence-kysely';

/** What a webhook delivery became after an attempt (the dispatcher's pass counts them so). */
export type WebhookOutcome = 'succeeded' | 'retrying' | 'failed';

/**
 * Depths of the queues the database holds, read when Prometheus scrapes (DESIGN §17; the server's
 * are `queueDepthsOf`): each answers null while it cannot be told, and the gauge then has no
 * sample rather than a made-up 0.
 */
export interface QueueDepths {
  /** Webhook deliveries waiting for an attempt, over every brand. */
  webhookDeliveriesPending(): Promise<number | null>;
  /** Bulk operations by status, over every brand. */
  bulkOperationsByStatus(): Promise<ReadonlyMap<string, number> | null>;
}

/** Depths nobody can tell (before the storage is open): the gauges exist, without samples. */
export const UNKNOWN_QUEUE_DEPTHS: QueueDepths = {
  webhookDeliveriesPending: () => Promise.resolve(null),
  bulkOperationsByStatus: () => Promise.resolve(null),
};

/**
 * A gauge without labels that has no sample while its value cannot be told. prom-client gives
 * such a gauge a sample at all times (0 until set, then the last value), which would pass a made-up
 * 0 or a stale depth off as a reading.
 */
class GaugeOfUnknownValue extends Gauge {
  known = false;

  override async get(): ReturnType<Gauge['get']> {
    const metric = await super.get();
    return this.known ? metric : { ...metric, values: [] };
  }
}

/** Upper bounds of the request-duration buckets, in seconds: most answers take milliseconds. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One request's counter and histogram children, found by one map lookup instead of hashing labels. */
interface RouteSeries {
  count: Counter.Internal;
  duration: Histogram.Internal<'method' | 'route'>;
}

/**
 * The process's metrics (DESIGN §17) in a registry of their own, with the runtime's (event-loop
 * lag, heap, GC). Names and labels are the ones the README lists; routes are labelled by their
 * template, never a raw path, so a label's values stay as few as the routes are.
 */
export class ApiMetrics {
  readonly registry = new Registry();
  private readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  private readonly storageUnavailable = new Counter({
    name: 'storage_unavailable_total',
    help: 'Requests answered 503 because the database could not serve them (down, full, read-only, locked)',
    registers: [this.registry],
  });
  private readonly transactionRetries = new Counter({
    name: 'transaction_retries_total',
    help: 'Transactions run again after losing a write race (serialization failure, deadlock)',
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'rate_limited_total',
    help: 'Requests refused with 429 by a rate limit',
    registers: [this.registry],
  });
  private readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts recorded, by outcome (succeeded, retrying, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly events = new Counter({
    name: 'events_total',
    help: 'Events committed to the outbox, by type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  private readonly series = new Map<string, RouteSeries>();
  /** Told once the storage is open (the storage is opened with this object's observer). */
  private queues: QueueDepths = UNKNOWN_QUEUE_DEPTHS;

  constructor() {
    const queues = (): QueueDepths => this.queues;
    // Every worker reads the same database: across a cluster the largest answer is the depth,
    // not the sum of the workers' identical ones.
    new GaugeOfUnknownValue({
      name: 'webhook_deliveries_pending',
      help: 'Webhook deliveries waiting for an attempt (read from the database when scraped)',
      registers: [this.registry],
      aggregator: 'max',
      async collect() {
        const pending = await queues().webhookDeliveriesPending();
        (this as GaugeOfUnknownValue).known = pending !== null;
        if (pending !== null) this.set(pending);
      },
    });
    new Gauge({
      name: 'bulk_operations',
      help: 'Bulk operations by status (read from the database when scraped)',
      labelNames: ['status'] as const,
      registers: [this.registry],
      aggregator: 'max',
      async collect() {
        const byStatus = await queues().bulkOperationsByStatus();
        this.reset();
        for (const [status, count] of byStatus ?? []) this.set({ status }, count);
      },
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /** Where the queue gauges read their depths from, once there is a storage to ask. */
  watchQueues(queues: QueueDepths): void {
    this.queues = queues;
  }

  /** Counts one answered request under its route template and status, with its duration. */
  requestAnswered(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        count: this.httpRequests.labels(method, route, String(status)),
        duration: this.httpDuration.labels(method, route),
      };
      this.series.set(key, series);
    }
    series.count.inc();
    series.duration.observe(seconds);
    if (status === 429) this.rateLimited.inc();
  }

  /** A request answered 503 for a storage fault. */
  storageFault(): void {
    this.storageUnavailable.inc();
  }

  /** The outcomes of a webhook dispatcher pass. */
  webhookOutcomes(outcomes: Readonly<Record<WebhookOutcome, number>>): void {
    for (const outcome of ['succeeded', 'retrying', 'failed'] as const)
      if (outcomes[outcome] > 0) this.webhookDeliveries.inc({ outcome }, outcomes[outcome]);
  }

  /** What the storage reports: retries, and the events of each committed transaction. */
  storageObserver(): StorageObserver {
    return {
      transactionRetried: () => this.transactionRetries.inc(),
      eventsCommitted: (types) => {
        for (const type of types) this.events.inc({ type });
      },
    };
  }
}
