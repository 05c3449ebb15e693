import { Address } from '../addresses/address';
import { EntityKind, IdGenerator } from './sequences.port';

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
