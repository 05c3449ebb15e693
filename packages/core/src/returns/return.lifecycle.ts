import { defineStateMachine } from '../shared/state-machine';
import { ReturnStatus } from './return.entities';

/**
 * open (announced in the back office) → approved → received (the warehouse counted the pieces;
 * a draft credit note is issued) → credited (its credit notes booked). Portal returns start at
 * approved; ad hoc returns are created received.
 */
export const returnLifecycle = defineStateMachine<ReturnStatus>('return', {
  open: { to: ['approved'] },
  approved: { to: ['received'] },
  received: { to: ['credited'] },
  credited: { to: [] },
});
