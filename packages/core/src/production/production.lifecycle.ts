import { defineStateMachine } from '../shared/state-machine';
import { ProductionOrderStatus } from './production.entities';

/** draft → open (approved: sent to the supplier; delivery notes may be made) → closed (no more receipts). */
export const productionOrderLifecycle = defineStateMachine<ProductionOrderStatus>('production order', {
  draft: { to: ['open'] },
  open: { to: ['closed'] },
  closed: { to: [] },
});
