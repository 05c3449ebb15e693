import { RequestHandler } from 'express';
import { apiErrors } from './api-errors';

/** Seconds clients are asked to wait before retrying during maintenance. */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 300;

/** While maintenance mode is on, every route but /health answers 503 (health stays up so orchestrators can see the process). */
export function maintenanceGate(enabled: boolean): RequestHandler {
  return (req, _res, next) => {
    if (enabled && req.path !== '/health') throw apiErrors.maintenance(MAINTENANCE_RETRY_AFTER_SECONDS);
    next();
  };
}
