import { defineStateMachine } from '../shared/state-machine';
import { DeliveryNoteStatus } from './production.entities';

/**
 * expected (announced goods) → received (the warehouse counted them). Receipts accumulate: a
 * received note takes later receipts (a second pallet, a recount), so received → received.
 */
export const deliveryNoteLifecycle = defineStateMachine<DeliveryNoteStatus>('delivery note', {
  expected: { to: ['received'] },
  received: { to: ['received'] },
});
