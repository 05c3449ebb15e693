import { Address } from '../addresses/address';
import { EntityKind, IdGenerator } from './sequences.ports';

/** What a sync did with one item; `absent` is a delete of something that did not exist (deletes are idempotent). */
export interface SyncOutcome {
  number: string;
  id: number | null;
  action: 'created' | 'updated' | 'unchanged' | 'deleted' | 'absent';
}

/** Gives addresses new from a sync (id 0) their ids, in one draw from the generator. */
export async function numberNewAddresses(ids: IdGenerator, kind: EntityKind, addresses: Address[]): Promise<Address[]> {
  const fresh = addresses.filter((a) => a.id === 0).length;
  if (fresh === 0) return addresses;
  const newIds = await ids.next(kind, fresh);
  let next = 0;
  return addresses.map((a) => (a.id === 0 ? { ...a, id: newIds[next++]! } : a));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

/**
 * Whether two records hold the same data, ignoring the order of their keys: storage adapters
 * and callers build the same address with its fields in different orders, and a replayed sync
 * must still be `unchanged`. Array order counts (addresses keep the order they were sent in).
 */
export function sameData(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
