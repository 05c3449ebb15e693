import { SyncOutcome } from '@brand/core';
import { TArray, TObject, TString } from '@sinclair/typebox';
import { Static, Type, arrayOf, integer, nullable, oneOfValues, string } from '../http/wire-schema';

/** What a sync did with one item (`absent`: a delete of something that did not exist). */
export const syncAction = oneOfValues<SyncOutcome['action']>(['created', 'updated', 'unchanged', 'deleted', 'absent']);

/** The id of the item a sync touched. */
export const syncedId = nullable(integer(), { description: 'null when a delete found nothing to delete' });

/** What every sync answer line carries after its natural key. */
const SyncOutcomeFieldsSchema = Type.Object({ id: syncedId, action: syncAction });

type SyncOutcomeShape<K extends string> = TObject<
  { [key in K]: TString } & (typeof SyncOutcomeFieldsSchema)['properties']
>;

/** One line of a sync answer: the natural key under its own name (`customer_number`, `supplier_number`), the id and what happened. */
export function syncOutcomeSchema<K extends string>(numberKey: K): SyncOutcomeShape<K> {
  return Type.Object({ [numberKey]: string(), ...SyncOutcomeFieldsSchema.properties } as {
    [key in K]: TString;
  } & (typeof SyncOutcomeFieldsSchema)['properties']);
}
// Spelt out, not `Static` of the shape: TypeScript cannot evaluate that for a key not yet known.
export type SyncOutcomeWire<K extends string> = { [key in K]: string } & Static<typeof SyncOutcomeFieldsSchema>;

/** `{ "<key>": [{ "<number key>", "id", "action" }…] }`: a sync's answer, one line per item in request order. */
export function syncOutcomesOf<K extends string, N extends string>(
  key: K,
  numberKey: N,
): TObject<{ [k in K]: TArray<SyncOutcomeShape<N>> }> {
  return Type.Object({ [key]: arrayOf(syncOutcomeSchema(numberKey)) } as { [k in K]: TArray<SyncOutcomeShape<N>> });
}

export function presentSyncOutcome<K extends string>(numberKey: K, outcome: SyncOutcome): SyncOutcomeWire<K> {
  return { [numberKey]: outcome.number, id: outcome.id, action: outcome.action } as SyncOutcomeWire<K>;
}
