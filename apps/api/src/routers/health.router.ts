import { apiErrors } from '../http/api-errors';
import { Surface } from '../http/route';
import { Type, constant } from '../http/wire-schema';

/** Liveness and readiness in one: 200 while the database answers, 503 when it does not. Open to anyone, even in maintenance. */
export function healthRouter(deps: { ping: () => Promise<boolean> }): Surface<'none'> {
  return new Surface('health', 'none', ['/health']).route({
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
      const healthy = await deps.ping().catch(() => false);
      if (!healthy) throw apiErrors.storageUnavailable();
      return { status: 'ok' as const };
    },
  });
}
