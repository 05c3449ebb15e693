/**
 * `Promise.all` that rejects only after every promise has settled, with the first rejection.
 *
 * Inside a unit of work every query runs on the transaction's one connection. With
 * `Promise.all`, the first failure rejects at once while its siblings are still running: the
 * transaction is rolled back under them, and a sibling's follow-up query can then run after the
 * ROLLBACK, outside the transaction (a write that commits on its own) or on a connection already
 * handed to another request. Waiting for every sibling first means nothing of the work outlives
 * the transaction. Reads outside a transaction gain nothing from `Promise.all` either way, so
 * the core uses this everywhere.
 *
 * @example
 * const [balances, location] = await settleAll([tx.stock.balances(brandId, ids), tx.inventoryLocations.findDefault(brandId)]);
 */
export async function settleAll<T extends readonly unknown[] | []>(
  promises: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const outcomes: readonly PromiseSettledResult<unknown>[] = await Promise.allSettled(promises as readonly unknown[]);
  const values: unknown[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') throw outcome.reason;
    values.push(outcome.value);
  }
  return values as { -readonly [K in keyof T]: Awaited<T[K]> };
}
