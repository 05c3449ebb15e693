export * from './return.entities';
export * from './return.ports';
export * from './return.lifecycle';
export * from './alert.lifecycle';
export * from './return.list-definitions';
// Back-office reference data (R1): claim causes and return portals.
export * from './create-claim-cause';
export * from './list-claim-causes';
export * from './create-return-portal';
export * from './list-return-portals';
// Returns flow (R2): receipts, credit notes, back office, 3PL and alerts.
export * from './issue-return-credit-note';
export * from './receive-return-pieces';
export * from './return-line-builders';
export * from './find-return';
export * from './return-view';
export * from './create-return';
export * from './approve-return';
export * from './get-return';
export * from './list-returns';
export * from './list-third-party-returns';
export * from './export-third-party-returns';
export * from './receive-third-party-return';
export * from './create-ad-hoc-return';
export * from './list-alerts';
export * from './credit-note-from-alert';
export * from './get-third-party-returns';
// External return portals (R3): upsert and finalize.
export * from './portal-access';
export * from './portal-return-lines';
export * from './upsert-portal-return';
export * from './finalize-portal-return';
