import { ConsoleSession } from '../console/console-session.entities';
import { ConsoleRepositories } from '../console/console-session.ports';
import { InMemoryFactories } from './in-memory-factories';
import { removeUpTo } from './in-memory-removal';

/** Console sessions in memory, with the semantics every adapter must match (the console sessions contract checks them). */
export interface ConsoleState {
  consoleSessions: ConsoleSession[];
}

export function emptyConsoleState(): ConsoleState {
  return { consoleSessions: [] };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export const inMemoryConsoleFactories: InMemoryFactories<ConsoleRepositories, ConsoleState> = {
  consoleSessions: (s) => {
    const rowOf = (brandId: number, id: number) =>
      s().consoleSessions.find((r) => r.brandId === brandId && r.id === id);
    return {
      async insert(session) {
        const taken = s().consoleSessions.some(
          (r) => r.brandId === session.brandId && (r.id === session.id || r.secretHash === session.secretHash),
        );
        if (taken) throw new Error(`console session ${session.brandId}/${session.id} (or its hash) exists already`);
        s().consoleSessions.push(clone(session));
      },
      async findByHash(brandId, secretHash) {
        const found = s().consoleSessions.find((r) => r.brandId === brandId && r.secretHash === secretHash);
        return found ? clone(found) : null;
      },
      async touch(brandId, id, at) {
        const session = rowOf(brandId, id);
        if (!session) return false;
        session.lastSeenAt = at;
        return true;
      },
      async delete(brandId, id) {
        const before = s().consoleSessions.length;
        s().consoleSessions = s().consoleSessions.filter((r) => !(r.brandId === brandId && r.id === id));
        return s().consoleSessions.length < before;
      },
      async deleteEnded(at, idleSince, limit) {
        return removeUpTo(s().consoleSessions, (r) => r.expiresAt <= at || r.lastSeenAt <= idleSince, limit).length;
      },
    };
  },
};
