import { defineStateMachine } from '../shared/state-machine';
import { FinancialDocumentStatus } from './finance.entities';

/** Invoices and credit notes: draft → booked; booking is final. */
export const financialDocumentLifecycle = defineStateMachine<FinancialDocumentStatus>('financial document', {
  draft: { to: ['booked'] },
  booked: { to: [] },
});
