import { TransactionEnd } from '@brand/core';

/**
 * The types of the events each transaction wrote, by the transaction's end (one per binding):
 * the unit of work tells its observer once the transaction committed. A WeakMap, as the outbox
 * keeps what a transaction recorded: nothing outlives its transaction.
 */
const written = new WeakMap<TransactionEnd, string[]>();

/** Notes that the transaction ending with `end` wrote events of these types. */
export function noteEventsWritten(end: TransactionEnd, types: readonly string[]): void {
  const list = written.get(end);
  if (list) list.push(...types);
  else written.set(end, [...types]);
}

/** The types of the events the transaction ending with `end` wrote, one entry per event. */
export function eventTypesWrittenIn(end: TransactionEnd): readonly string[] {
  return written.get(end) ?? [];
}
