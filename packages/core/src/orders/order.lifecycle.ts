import { defineStateMachine } from '../shared/state-machine';
import { OrderStatus } from './order.entities';

/** DESIGN §5: draft → approved → archived; draft | approved → cancelled. */
export const orderLifecycle = defineStateMachine<OrderStatus>('order', {
  draft: { to: ['approved', 'cancelled'] },
  approved: { to: ['archived', 'cancelled'] },
  cancelled: { to: [] },
  archived: { to: [] },
});
