import { Repositories, UnitOfWork } from '@brand/core';
import { Storage } from '@brand/persistence-kysely';

/**
 * The storage with a switch for a failure at the very end of a transaction: once `failNext(key)`
 * is called, the next transaction whose work uses the repository `key` runs that work in full (its
 * changes saved, its events recorded) and then throws before it commits, so all of it rolls back
 * and the request answers 500. Transactions that do not use `key` (the request log's) pass.
 */
export function storageFailingBeforeCommit(storage: Storage): {
  storage: Storage;
  failNext(key: keyof Repositories): void;
} {
  let armed: keyof Repositories | null = null;
  const inner = storage.uow;
  const uow: UnitOfWork<Repositories> = {
    run: (work) =>
      inner.run(async (tx) => {
        let used = false;
        const result = await work(
          new Proxy(tx, {
            get(target, key, receiver) {
              if (key === armed) used = true;
              return Reflect.get(target, key, receiver) as unknown;
            },
          }),
        );
        if (used) {
          armed = null;
          throw new Error('the disk failed at commit');
        }
        return result;
      }),
    read: (work) => inner.read(work),
  };
  return {
    storage: Object.assign(Object.create(storage) as Storage, { uow }),
    failNext: (key) => {
      armed = key;
    },
  };
}
