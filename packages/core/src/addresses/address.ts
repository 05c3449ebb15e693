import { ViolationList } from '../shared/errors';

/** A postal address of a customer or supplier. */
export interface Address {
  id: number;
  /** Internal label; the sync key when `addresses_sync_key` is `address_title`. */
  title: string;
  name: string;
  address: string;
  address2: string | null;
  zip: string;
  city: string;
  region: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** The ERP's own id of the address; the sync key when `addresses_sync_key` is `remote_erp_id`. */
  remoteErpId: string | null;
}

/** An address as a sync sends it, before it has an id. */
export type AddressInput = Omit<Address, 'id'>;
/** How a sync treats the addresses it does not send: `replace` drops them, `append` keeps them. */
export type AddressSyncMode = 'replace' | 'append';
/** Which field matches a sent address to an existing one: its title or the ERP's id. */
export type AddressSyncKey = 'address_title' | 'remote_erp_id';

/**
 * The addresses of a customer or supplier sync: the addresses and how they are matched and merged.
 */
export interface AddressSync {
  mode: AddressSyncMode;
  key: AddressSyncKey;
  addresses: AddressInput[];
}

function keyOf(address: Pick<Address, 'title' | 'remoteErpId'>, key: AddressSyncKey): string | null {
  return key === 'address_title' ? address.title.trim().toLowerCase() : address.remoteErpId;
}

/** Collects what is wrong with an address sync (missing keys, a key given twice) under `pointer`. */
export function checkAddressSync(sync: AddressSync, pointer: string, violations: ViolationList): void {
  const seen = new Set<string>();
  sync.addresses.forEach((address, i) => {
    const key = keyOf(address, sync.key);
    if (key === null || key === '') {
      violations.add(
        `${pointer}/addresses/${i}/${sync.key === 'address_title' ? 'title' : 'remote_erp_id'}`,
        `is required when addresses_sync_key is ${sync.key}`,
      );
      return;
    }
    if (seen.has(key))
      violations.add(
        `${pointer}/addresses/${i}`,
        `repeats the ${sync.key} ${JSON.stringify(key)} of an earlier address`,
      );
    seen.add(key);
  });
}

/**
 * Applies an address sync to the current addresses: an incoming address whose key matches an
 * existing one updates it in place (keeping its id); others are new (`id: 0`, to be numbered by
 * the caller). `replace` drops existing addresses not sent; `append` keeps them.
 */
export function applyAddressSync(current: Address[], sync: AddressSync): Address[] {
  // A list, not a map by key: existing addresses may share a key (two titled "Store" synced by
  // remote_erp_id), and append must keep every one of them.
  const remaining = [...current];
  const updated: Address[] = sync.addresses.map((incoming) => {
    const key = keyOf(incoming, sync.key);
    const index = key === null ? -1 : remaining.findIndex((a) => keyOf(a, sync.key) === key);
    const existing = index >= 0 ? remaining.splice(index, 1)[0] : undefined;
    return { ...incoming, id: existing?.id ?? 0 };
  });
  return sync.mode === 'replace'
    ? updated
    : [...remaining, ...updated].sort((a, b) => (a.id || Infinity) - (b.id || Infinity));
}
