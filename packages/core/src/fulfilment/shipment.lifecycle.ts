import { defineStateMachine } from '../shared/state-machine';
import { ShipmentStatus } from './shipment.entities';

/** open → completed (deliver, once) or cancelled. */
export const shipmentLifecycle = defineStateMachine<ShipmentStatus>('shipment', {
  open: { to: ['completed', 'cancelled'] },
  completed: { to: [] },
  cancelled: { to: [] },
});
