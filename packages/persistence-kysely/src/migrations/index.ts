import { Migration, MigrationProvider } from 'kysely';
import { Dialect } from '../storage';
import { foundationMigration } from './0001-foundation';
import { catalogMigration } from './0002-catalog';
import { ordersMigration } from './0003-orders';
import { productionMigration } from './0004-production';
import { returnsMigration } from './0005-returns';
import { credentialsRevisionMigration } from './0006-credentials-revision';
import { eventsMigration } from './0007-events';
import { webhooksMigration } from './0008-webhooks';
import { userPasswordsMigration } from './0009-user-passwords';
import { oauthClientsMigration } from './0010-oauth-clients';
import { oauthGrantsMigration } from './0011-oauth-grants';
import { consoleSessionsMigration } from './0012-console-sessions';
import { requestLogBrandIndexesMigration } from './0013-request-log-brand-indexes';
import { housekeepingIndexesMigration } from './0014-housekeeping-indexes';
import { idempotencyKeysMigration } from './0015-idempotency-keys';
import { eventFeedsMigration } from './0016-event-feeds';
import { brandKeysMigration } from './0017-brand-keys';
import { rowLevelSecurityMigration } from './0018-row-level-security';
import { brandLedIndexesMigration } from './0019-brand-led-indexes';
import { bulkOperationsMigration } from './0020-bulk-operations';
import { integrationHealthMigration } from './0021-integration-health';
import { requestTraceIdsMigration } from './0022-request-trace-ids';
import { keptOrderEventTotalsMigration } from './0023-kept-order-event-totals';
import { ordersStatusDateKeysMigration } from './0024-orders-status-date-keys';

/** Every migration in order. Names sort lexically; never rename or edit a shipped one, add a new one. */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '0001-foundation': foundationMigration(dialect),
        '0002-catalog': catalogMigration(dialect),
        '0003-orders': ordersMigration(dialect),
        '0004-production': productionMigration(dialect),
        '0005-returns': returnsMigration(dialect),
        '0006-credentials-revision': credentialsRevisionMigration(dialect),
        '0007-events': eventsMigration(dialect),
        '0008-webhooks': webhooksMigration(dialect),
        '0009-user-passwords': userPasswordsMigration(dialect),
        '0010-oauth-clients': oauthClientsMigration(dialect),
        '0011-oauth-grants': oauthGrantsMigration(dialect),
        '0012-console-sessions': consoleSessionsMigration(dialect),
        '0013-request-log-brand-indexes': requestLogBrandIndexesMigration(),
        '0014-housekeeping-indexes': housekeepingIndexesMigration(),
        '0015-idempotency-keys': idempotencyKeysMigration(dialect),
        '0016-event-feeds': eventFeedsMigration(dialect),
        '0017-brand-keys': brandKeysMigration(dialect),
        '0018-row-level-security': rowLevelSecurityMigration(dialect),
        '0019-brand-led-indexes': brandLedIndexesMigration(),
        '0020-bulk-operations': bulkOperationsMigration(dialect),
        '0021-integration-health': integrationHealthMigration(),
        '0022-request-trace-ids': requestTraceIdsMigration(),
        '0023-kept-order-event-totals': keptOrderEventTotalsMigration(dialect),
        '0024-orders-status-date-keys': ordersStatusDateKeysMigration(),
      };
    },
  };
}
