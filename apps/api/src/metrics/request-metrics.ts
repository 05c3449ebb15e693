import { RequestObserver } from '../http/request-logging';
import { routeTemplateOf } from '../http/route-template';
import { ApiMetrics } from './api-metrics';

/**
 * Counts every answered request into `metrics` under its route template (told by the request
 * log line's middleware, which times the request anyway). Outside maintenance mode the only 503
 * the API answers is the database's (`storage_unavailable`, on every surface), so those count as
 * storage faults too.
 */
export function countRequestsInto(metrics: ApiMetrics, options: { maintenanceMode: boolean }): RequestObserver {
  return (req, res, durationMs) => {
    const status = res.statusCode;
    metrics.requestAnswered(req.method, routeTemplateOf(req, res), status, durationMs / 1000);
    if (status === 503 && !options.maintenanceMode) metrics.storageFault();
  };
}
