import { SharedTransaction, SharingUnitOfWork, TransactionMustRestart } from '@brand/core';
import { describeIdempotencyContract } from '@brand/core/testing';
import { openTestStorage, testDialects } from '../src/testing';

// The idempotency and shared-transaction contract the in-memory adapter passes, on every dialect of this run.
for (const dialect of testDialects()) {
  describeIdempotencyContract(`Kysely idempotency keys [${dialect}]`, () => openTestStorage(dialect));

  describe(`a shared transaction meeting a write conflict [${dialect}]`, () => {
    it('asks to be run again from its start (the adapter would retry it), and keeps nothing', async () => {
      const storage = await openTestStorage(dialect);
      try {
        let current: SharedTransaction | undefined;
        const sharing = new SharingUnitOfWork(storage.uow, {
          current: () => current,
          run: (value, work) => {
            current = value;
            return work();
          },
        });
        const brand = { id: 9001, name: 'Twice', currency: 'EUR', createdAt: 'x', updatedAt: 'x' };
        current = new SharedTransaction(storage.uow);
        await sharing.run((tx) => tx.brands.insert(brand));
        // The second insert takes a key the first took: a unique violation, which `run` retries.
        await expect(sharing.run((tx) => tx.brands.insert(brand))).rejects.toBeInstanceOf(TransactionMustRestart);
        current = undefined;
        expect(await storage.uow.read((r) => r.brands.findById(9001))).toBeNull();
      } finally {
        await storage.close();
      }
    });
  });
}
