import { WebhookEndpoint, WebhookEndpointRepository, WebhookRepositories } from '@brand/core';
import { Selectable } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { WebhookEndpointsTable } from '../../tables/webhooks.tables';
import { selectInChunks, unique } from '../batches';
import { bulkInsert } from '../bulk-insert';
import { Executor, fromFlag, RepositoryFactories, toFlag } from '../executor';
import { fromJson, toJson } from '../json-columns';

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
  '"updated_at" = excluded."updated_at"';

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
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

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
      const result = await db
        .deleteFrom('webhook_endpoints')
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

/** The webhooks module's repositories, as the unit of work makes them. */
export const webhookRepositoryFactories: RepositoryFactories<WebhookRepositories> = {
  webhookEndpoints: (executor) => webhookEndpointRepository(executor),
};
