import { defineStateMachine } from '../shared/state-machine';
import { AlertStatus } from './return.entities';

/** open (an ad hoc return without RMA awaits a decision) → resolved (its credit note was drafted); final. */
export const alertLifecycle = defineStateMachine<AlertStatus>('alert', {
  open: { to: ['resolved'] },
  resolved: { to: [] },
});
