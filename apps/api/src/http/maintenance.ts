import { RequestHandler } from 'express';
import { apiErrors } from './api-errors';

/** Seconds clients are asked to wait before retrying during maintenance. */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 300;

/** The health routes, answered even in maintenance: orchestrators must still see the process and its database. */
const HEALTH_PATHS = new Set(['/health', '/health/live', '/health/ready']);

/** While maintenance mode is on, every route but the health routes answers 503. */
export function maintenanceGate(enabled: boolean): RequestHandler {
  return (req, _res, next) => {
    if (enabled && !HEALTH_PATHS.has(req.path)) throw apiErrors.maintenance(MAINTENANCE_RETRY_AFTER_SECONDS);
    next();
  };
}
