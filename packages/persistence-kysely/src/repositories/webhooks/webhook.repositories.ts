import {
  DeliveryStatus,
  WebhookDelivery,
  WebhookDeliveryRepository,
  WebhookEndpoint,
  WebhookEndpointRepository,
  WebhookRepositories,
} from '@brand/core';
import { Selectable } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { WebhookDeliveriesTable, WebhookEndpointsTable } from '../../tables/webhooks.tables';
import { selectInChunks, unique } from '../batches';
import { withinBrand } from '../../brand-session';
import { deleteAtMost } from '../bounded-delete';
import { bulkInsert } from '../bulk-insert';
import { Executor, fromFlag, RepositoryFactories, toFlag } from '../executor';
import { fromJson, toJson } from '../json-columns';
import { KeptStatement, runKept } from '../kept-statements';

/** The list keys of `webhookEndpointListDefinition`. */
const ENDPOINT_COLUMNS: ListColumns = {
  id: { column: 'webhook_endpoints.id', type: 'integer' },
  url: { column: 'webhook_endpoints.url', type: 'string' },
  enabled: { column: 'webhook_endpoints.enabled', type: 'boolean' },
  created_at: { column: 'webhook_endpoints.created_at', type: 'datetime' },
  updated_at: { column: 'webhook_endpoints.updated_at', type: 'datetime' },
};

const ENDPOINT_LIST = brandTableList('webhook_endpoints', ENDPOINT_COLUMNS);

// The key leads with brand_id, so a save can never touch another brand's row.
const UPSERT =
  'on conflict ("brand_id", "id") do update set "url" = excluded."url", "events" = excluded."events", ' +
  '"description" = excluded."description", "enabled" = excluded."enabled", "secret" = excluded."secret", ' +
  '"previous_secret" = excluded."previous_secret", "previous_secret_expires_at" = excluded."previous_secret_expires_at", ' +
  '"failing_since" = excluded."failing_since", "updated_at" = excluded."updated_at"';

const rowToEndpoint = (r: Selectable<WebhookEndpointsTable>): WebhookEndpoint => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  url: r.url,
  events: fromJson<string[]>(r.events, []),
  description: r.description,
  enabled: fromFlag(r.enabled),
  secret: r.secret,
  previousSecret: r.previous_secret,
  previousSecretExpiresAt: r.previous_secret_expires_at,
  failingSince: r.failing_since,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * Kept: every transaction that records an event asks it (placing an order among them), and
 * building it anew cost more than running it.
 */
const ENABLED_ENDPOINTS_OF_BRAND: KeptStatement<Selectable<WebhookEndpointsTable>> = (db, [brandId]) =>
  db.selectFrom('webhook_endpoints').selectAll().where('brand_id', '=', brandId).where('enabled', '=', 1).orderBy('id');

export function webhookEndpointRepository(executor: Executor): WebhookEndpointRepository {
  const { db } = executor;
  return {
    async save(e) {
      await bulkInsert(
        executor,
        'webhook_endpoints',
        [
          {
            brand_id: e.brandId,
            id: e.id,
            url: e.url,
            events: toJson(e.events),
            description: e.description,
            enabled: toFlag(e.enabled),
            secret: e.secret,
            previous_secret: e.previousSecret,
            previous_secret_expires_at: e.previousSecretExpiresAt,
            failing_since: e.failingSince,
            created_at: e.createdAt,
            updated_at: e.updatedAt,
          },
        ],
        { conflict: UPSERT },
      );
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        db
          .selectFrom('webhook_endpoints')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('id', 'in', chunk)
          .execute(),
      );
      return rows.map(rowToEndpoint).sort((a, b) => a.id - b.id);
    },
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, ENDPOINT_LIST, brandId, query);
      return { rows: rows.map(rowToEndpoint), total };
    },
    async delete(brandId, id) {
      // Its deliveries go with it (the foreign key cascades).
      const result = await db
        .deleteFrom('webhook_endpoints')
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async findEnabled(brandId) {
      const rows = await runKept(executor, ENABLED_ENDPOINTS_OF_BRAND, [brandId]);
      return rows.map(rowToEndpoint);
    },
  };
}

/** The list keys of `webhookDeliveryListDefinition`. */
const DELIVERY_COLUMNS: ListColumns = {
  id: { column: 'webhook_deliveries.id', type: 'integer' },
  event_type: { column: 'webhook_deliveries.event_type', type: 'string' },
  status: { column: 'webhook_deliveries.status', type: 'string' },
  created_at: { column: 'webhook_deliveries.created_at', type: 'datetime' },
  updated_at: { column: 'webhook_deliveries.updated_at', type: 'datetime' },
};

const rowToDelivery = (r: Selectable<WebhookDeliveriesTable>): WebhookDelivery => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  endpointId: Number(r.endpoint_id),
  eventId: Number(r.event_id),
  eventType: r.event_type,
  status: r.status as DeliveryStatus,
  attempts: Number(r.attempts),
  lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
  lastError: r.last_error,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const outcomeColumns = (d: WebhookDelivery) => ({
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  next_attempt_at: d.nextAttemptAt,
  updated_at: d.updatedAt,
  lease_owner: null,
  lease_until: null,
});

export function webhookDeliveryRepository(executor: Executor): WebhookDeliveryRepository {
  const { db, dialect } = executor;
  return {
    async insert(deliveries) {
      await bulkInsert(
        executor,
        'webhook_deliveries',
        deliveries.map((d) => ({
          brand_id: d.brandId,
          id: d.id,
          endpoint_id: d.endpointId,
          event_id: d.eventId,
          event_type: d.eventType,
          status: d.status,
          attempts: d.attempts,
          last_status_code: d.lastStatusCode,
          last_error: d.lastError,
          next_attempt_at: d.nextAttemptAt,
          lease_owner: null,
          lease_until: null,
          created_at: d.createdAt,
          updated_at: d.updatedAt,
        })),
      );
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        db
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('id', 'in', chunk)
          .execute(),
      );
      return rows.map(rowToDelivery).sort((a, b) => a.id - b.id);
    },
    async listForEndpoint(brandId, endpointId, query) {
      const source = {
        columns: DELIVERY_COLUMNS,
        base: (kysely: typeof db, brand: number) =>
          kysely
            .selectFrom('webhook_deliveries')
            .selectAll()
            .where('webhook_deliveries.brand_id', '=', brand)
            .where('webhook_deliveries.endpoint_id', '=', endpointId),
      };
      const { rows, total } = await fetchListPage(executor, source, brandId, query);
      return { rows: rows.map(rowToDelivery), total };
    },
    async claimDue(now, lease, limit) {
      // Brand by brand (DESIGN §9: no multi-brand FOR UPDATE), from a brand picked at random so a
      // brand with a backlog cannot keep the others waiting pass after pass. Per brand, in the
      // caller's transaction: its due deliveries nobody holds, the longest due first, locked (on
      // Postgres SKIP LOCKED lets concurrent dispatchers pass over each other's rows instead of
      // waiting; SQLite serialises writers), then taken by this owner.
      // Two statements, not `UPDATE … WHERE (brand_id, id) IN (SELECT … LIMIT n FOR UPDATE SKIP
      // LOCKED)`: Postgres may rescan such a subquery once per row it updates, and each rescan
      // skips the rows just taken and locks the next ones, so one pass claimed a brand's whole
      // backlog whatever its limit (and sent it at once, past the deliveries' deadline).
      const brands = (await db.selectFrom('brands').select('id').orderBy('id').execute()).map((b) => Number(b.id));
      const start = Math.floor(Math.random() * brands.length);
      const claimed: { brandId: number; id: number }[] = [];
      for (let i = 0; i < brands.length && claimed.length < limit; i++) {
        const brandId = brands[(start + i) % brands.length]!;
        const ids = await withinBrand(db, brandId, async () => {
          const due = db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('brand_id', '=', brandId)
            .where('status', '=', 'pending')
            .where('next_attempt_at', '<=', now)
            .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
            .orderBy('next_attempt_at')
            .orderBy('id')
            .limit(limit - claimed.length);
          const rows = await (dialect === 'postgres' ? due.forUpdate().skipLocked() : due).execute();
          if (rows.length === 0) return [];
          const taken = rows.map((r) => Number(r.id));
          await db
            .updateTable('webhook_deliveries')
            .set({ lease_owner: lease.owner, lease_until: lease.until })
            .where('brand_id', '=', brandId)
            .where('id', 'in', taken)
            .execute();
          return taken;
        });
        for (const id of ids) claimed.push({ brandId, id });
      }
      return claimed;
    },
    async recordAttempt(delivery, owner) {
      const result = await db
        .updateTable('webhook_deliveries')
        .set(outcomeColumns(delivery))
        .where('brand_id', '=', delivery.brandId)
        .where('id', '=', delivery.id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async release(owner) {
      for (const { id } of await db.selectFrom('brands').select('id').orderBy('id').execute())
        await withinBrand(db, id, () =>
          db
            .updateTable('webhook_deliveries')
            .set({ lease_owner: null, lease_until: null })
            .where('brand_id', '=', id)
            .where('lease_owner', '=', owner)
            .execute(),
        );
    },
    deleteCreatedBefore: (before, limit) =>
      deleteAtMost(db, 'webhook_deliveries', ['brand_id', 'id'], limit, (eb) => eb('created_at', '<', before)),
    async save(delivery) {
      await db
        .updateTable('webhook_deliveries')
        .set(outcomeColumns(delivery))
        .where('brand_id', '=', delivery.brandId)
        .where('id', '=', delivery.id)
        .execute();
    },
  };
}

/** The webhooks module's repositories, as the unit of work makes them. */
export const webhookRepositoryFactories: RepositoryFactories<WebhookRepositories> = {
  webhookEndpoints: (executor) => webhookEndpointRepository(executor),
  webhookDeliveries: (executor) => webhookDeliveryRepository(executor),
};
