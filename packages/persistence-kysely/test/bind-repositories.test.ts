import { Repositories } from '@brand/core';
import { bindRepositories } from '../src';
import { openTestStorage, testDialects } from '../src/testing';

describe('bindRepositories', () => {
  const executor = { db: {} as never, dialect: 'sqlite' as const };

  it('hands out the same repository on every access of one binding', () => {
    const tx = bindRepositories(executor);
    expect(tx.orders).toBe(tx.orders);
    expect(bindRepositories(executor).orders).not.toBe(tx.orders);
  });

  it('behaves like a plain object of every repository when spread, listed or checked with `in`', () => {
    const tx = bindRepositories(executor);
    const replaced = { findByPublicId: async () => null } as unknown as Repositories['orderChannels'];
    const wrapped: Repositories = { ...tx, orderChannels: replaced };
    expect(Object.keys(tx)).toEqual(
      expect.arrayContaining(['ids', 'orders', 'returns', 'productionOrders', 'accessTokens']),
    );
    expect(Object.keys(wrapped).sort()).toEqual(Object.keys(tx).sort());
    expect(wrapped.orders).toBe(tx.orders);
    expect(wrapped.orderChannels).toBe(replaced);
    expect('stock' in tx).toBe(true);
    expect('nothing' in tx).toBe(false);
  });

  it('is not a thenable, so an async function may return it', async () => {
    const tx = bindRepositories(executor);
    expect((tx as unknown as { then?: unknown }).then).toBeUndefined();
    await expect(Promise.resolve(tx)).resolves.toBe(tx);
  });

  it('refuses to be changed, so a repository cannot be swapped under a running transaction', () => {
    const tx = bindRepositories(executor) as unknown as Record<string, unknown>;
    expect(() => {
      'use strict';
      tx['orders'] = null;
    }).toThrow(TypeError);
  });

  for (const dialect of testDialects()) {
    it(`reads and writes through a spread copy inside a transaction [${dialect}]`, async () => {
      const storage = await openTestStorage(dialect);
      try {
        const found = await storage.uow.run(async (tx) => {
          const { ...copy } = tx;
          const [id] = await copy.ids.next('brands', 1);
          await copy.brands.insert({
            id: id!,
            name: 'Spread',
            currency: 'EUR',
            createdAt: '2026-01-01T00:00:00.000Z',
            updatedAt: '2026-01-01T00:00:00.000Z',
          });
          return tx.brands.findById(id!);
        });
        expect(found?.name).toBe('Spread');
      } finally {
        await storage.close();
      }
    });
  }
});
