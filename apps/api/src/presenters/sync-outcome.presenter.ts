import { SyncOutcome } from '@brand/core';

/** One line of a sync answer: the natural key under its own name (`customer_number`, `supplier_number`), the id and what happened. */
export type SyncOutcomeWire<K extends string> = { [key in K]: string } & {
  id: number | null;
  action: SyncOutcome['action'];
};

export function presentSyncOutcome<K extends string>(numberKey: K, outcome: SyncOutcome): SyncOutcomeWire<K> {
  return { [numberKey]: outcome.number, id: outcome.id, action: outcome.action } as SyncOutcomeWire<K>;
}
