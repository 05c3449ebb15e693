import { ViolationList } from './errors';
import { settleAll } from './settle-all';

/** A reference to a brand's record by id or by code, as syncs allow (`payment_terms_id` or `payment_terms_code`). */
export interface IdOrCode {
  id?: number;
  code?: string;
}

/**
 * Resolves every reference of a request in two queries and reports the ones that do not exist
 * (or belong to another brand, which is the same to the caller).
 */
export async function resolveReferences<T extends { id: number; code: string }>(
  refs: { ref: IdOrCode; pointer: string }[],
  what: string,
  load: { byIds(ids: number[]): Promise<T[]>; byCodes(codes: string[]): Promise<T[]> },
  violations: ViolationList,
): Promise<Map<IdOrCode, T>> {
  const ids = [...new Set(refs.flatMap(({ ref }) => (ref.id !== undefined ? [ref.id] : [])))];
  const codes = [
    ...new Set(refs.flatMap(({ ref }) => (ref.id === undefined && ref.code !== undefined ? [ref.code] : []))),
  ];
  const [byId, byCode] = await settleAll([
    ids.length ? load.byIds(ids) : Promise.resolve([]),
    codes.length ? load.byCodes(codes) : Promise.resolve([]),
  ]);
  const resolved = new Map<IdOrCode, T>();
  for (const { ref, pointer } of refs) {
    const found = ref.id !== undefined ? byId.find((r) => r.id === ref.id) : byCode.find((r) => r.code === ref.code);
    if (found) {
      if (ref.id !== undefined && ref.code !== undefined && found.code !== ref.code) {
        violations.add(
          pointer,
          `names ${what} id ${ref.id} and code ${JSON.stringify(ref.code)}, which are different ${what}`,
        );
      } else resolved.set(ref, found);
    } else if (ref.id === undefined && ref.code === undefined) violations.add(pointer, `must give an id or a code`);
    else
      violations.add(
        pointer,
        `names ${what} ${ref.id !== undefined ? `id ${ref.id}` : JSON.stringify(ref.code)}, which does not exist`,
      );
  }
  return resolved;
}
