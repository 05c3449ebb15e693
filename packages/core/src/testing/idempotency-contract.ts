import { beginIdempotentRequest } from '../idempotency/begin-idempotent-request';
import { completeIdempotentRequest } from '../idempotency/complete-idempotent-request';
import { IdempotencyScope, StoredAnswer } from '../idempotency/idempotency.entities';
import { IDEMPOTENCY_CLAIM_LEASE_MS, IDEMPOTENCY_KEY_RETENTION_MS } from '../idempotency/idempotency-rules';
import { pruneIdempotencyKeys } from '../idempotency/prune-idempotency-keys';
import { releaseIdempotentRequest } from '../idempotency/release-idempotent-request';
import { FixedClock } from '../shared/clock.ports';
import { AmbientContext, SharedTransaction, SharingUnitOfWork } from '../shared/shared-transaction';
import { ContractStorage, PlannedFailure, SLOW, insertBrand, useContractStorage } from './contract-support';
import { FakeSecretHasher } from './fake-secret-hasher';

const T0 = '2026-10-01T08:00:00.000Z';
const ANSWER: StoredAnswer = { status: 201, body: '{"data":{"id":7}}', location: '/v10/orders/7' };

/** An ambient context for one test at a time (the app's is AsyncLocalStorage). */
function simpleAmbient<T>(): AmbientContext<T> {
  let value: T | undefined;
  return {
    current: () => value,
    async run(next, work) {
      value = next;
      try {
        return await work();
      } finally {
        value = undefined;
      }
    },
  };
}

/**
 * The contract of idempotency keys and of the shared transaction on every storage adapter: a key
 * is claimed by exactly one request however many race for it; its answer is replayed to the same
 * request and refused to another; a lapsed claim or an expired key is taken over; an answer is
 * stored only by the claim that holds the key; and work joined into one shared transaction
 * commits, or rolls back, as one.
 *
 * @example
 * describeIdempotencyContract('in-memory idempotency', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeIdempotencyContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const hasher = new FakeSecretHasher();
    let keys = 0;
    /** A key of its own for each test, under one brand and app. */
    const aScope = async (clock: FixedClock): Promise<IdempotencyScope> => {
      const brand = await insertBrand(uow(), 'Idempotency brand', clock.now());
      keys += 1;
      return { brandId: brand.id, appId: 3, key: `order-${keys}` };
    };
    const begin = (clock: FixedClock, scope: IdempotencyScope, fingerprint = 'f1') =>
      beginIdempotentRequest({ uow: uow(), clock, hasher }, { scope, fingerprint });
    const complete = (scope: IdempotencyScope, claimToken: string, answer = ANSWER) =>
      uow().run((tx) => completeIdempotentRequest(tx, scope, claimToken, answer));

    it('claims a new key, replays its answer to the same request and refuses it to another', async () => {
      const clock = new FixedClock(T0);
      const scope = await aScope(clock);
      const first = await begin(clock, scope);
      if (first.kind !== 'run') throw new Error(`expected a claim, got ${first.kind}`);
      expect(await begin(clock, scope)).toEqual({ kind: 'in_use' });
      expect(await begin(clock, scope, 'f2')).toEqual({ kind: 'reused' });
      await complete(scope, first.claimToken);
      expect(await begin(clock, scope)).toEqual({ kind: 'replay', answer: ANSWER });
      expect(await begin(clock, scope, 'f2')).toEqual({ kind: 'reused' });
    });

    it('keeps keys apart per brand and per app', async () => {
      const clock = new FixedClock(T0);
      const scope = await aScope(clock);
      const other = await insertBrand(uow(), 'Other idempotency brand', clock.now());
      for (const elsewhere of [
        { ...scope, appId: 4 },
        { ...scope, brandId: other.id },
      ]) {
        const started = await begin(clock, scope);
        const there = await begin(clock, elsewhere, 'another request');
        expect(there.kind).toBe('run');
        expect(['run', 'in_use']).toContain(started.kind);
      }
    });

    it(
      'gives a key to exactly one of twenty concurrent requests',
      async () => {
        const clock = new FixedClock(T0);
        const scope = await aScope(clock);
        const starts = await Promise.all(Array.from({ length: 20 }, () => begin(clock, scope)));
        expect(starts.filter((s) => s.kind === 'run')).toHaveLength(1);
        expect(starts.filter((s) => s.kind === 'in_use')).toHaveLength(19);
      },
      SLOW,
    );

    it('stores an answer only under the claim that holds the key', async () => {
      const clock = new FixedClock(T0);
      const scope = await aScope(clock);
      const first = await begin(clock, scope);
      if (first.kind !== 'run') throw new Error('expected a claim');
      await expect(complete(scope, 'not-the-claim')).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
      expect(await begin(clock, scope)).toEqual({ kind: 'in_use' });

      clock.advance(IDEMPOTENCY_CLAIM_LEASE_MS);
      await expect(begin(clock, scope, 'f2')).resolves.toEqual({ kind: 'reused' });
      const retry = await begin(clock, scope);
      if (retry.kind !== 'run') throw new Error(`a lapsed claim should be taken over, got ${retry.kind}`);
      await expect(complete(scope, first.claimToken)).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
      await complete(scope, retry.claimToken, { ...ANSWER, body: '{"data":{"id":8}}' });
      expect(await begin(clock, scope)).toEqual({ kind: 'replay', answer: { ...ANSWER, body: '{"data":{"id":8}}' } });
    });

    it('forgets a released key, and frees a key past its retention for any request', async () => {
      const clock = new FixedClock(T0);
      const scope = await aScope(clock);
      const first = await begin(clock, scope);
      if (first.kind !== 'run') throw new Error('expected a claim');
      await releaseIdempotentRequest({ uow: uow() }, { scope, claimToken: first.claimToken });
      const second = await begin(clock, scope);
      if (second.kind !== 'run') throw new Error('a released key should be claimable');
      await complete(scope, second.claimToken);

      clock.advance(IDEMPOTENCY_KEY_RETENTION_MS + 1);
      expect((await begin(clock, scope, 'f2')).kind).toBe('run');
    });

    it('prunes the keys past their retention and keeps the younger ones', async () => {
      const clock = new FixedClock(T0);
      const old = await aScope(clock);
      await begin(clock, old);
      clock.advance(IDEMPOTENCY_KEY_RETENTION_MS / 2);
      const young = await aScope(clock);
      await begin(clock, young);
      clock.advance(IDEMPOTENCY_KEY_RETENTION_MS / 2 + 1);
      expect(await pruneIdempotencyKeys({ uow: uow(), clock })).toBeGreaterThanOrEqual(1);
      const kept = await uow().run((tx) =>
        tx.idempotencyKeys.claim({
          ...young,
          fingerprint: 'x',
          status: 'running',
          claimToken: 't',
          lockedUntil: T0,
          createdAt: T0,
          answer: null,
        }),
      );
      expect(kept).not.toBeNull();
      const gone = await uow().run((tx) =>
        tx.idempotencyKeys.claim({
          ...old,
          fingerprint: 'x',
          status: 'running',
          claimToken: 't',
          lockedUntil: T0,
          createdAt: T0,
          answer: null,
        }),
      );
      expect(gone).toBeNull();
    });

    describe('a shared transaction', () => {
      const ambient = simpleAmbient<SharedTransaction>();
      const sharing = () => new SharingUnitOfWork(uow(), ambient);

      it('commits every joined unit of work together, and its reads see what it wrote', async () => {
        const clock = new FixedClock(T0);
        const shared = new SharedTransaction(uow());
        const [first, second] = await ambient.run(shared, async () => {
          const made = await insertBrand(sharing(), 'Shared brand', clock.now());
          // Before the commit only the transaction's own reads see it (reading beside it would wait
          // for SQLite's one connection, which the transaction holds).
          expect(await sharing().read((r) => r.brands.findById(made.id))).toEqual(made);
          return [made, await insertBrand(sharing(), 'Second shared brand', clock.now())];
        });
        await shared.commit();
        expect(await uow().read((r) => r.brands.findById(first.id))).toEqual(first);
        expect(await uow().read((r) => r.brands.findById(second.id))).toEqual(second);
      });

      it('rolls back every joined unit of work when one fails, or when its owner rolls back', async () => {
        const clock = new FixedClock(T0);
        const failing = new SharedTransaction(uow());
        let madeId = 0;
        await expect(
          ambient.run(failing, async () => {
            madeId = (await insertBrand(sharing(), 'Doomed brand', clock.now())).id;
            await sharing().run(async () => {
              throw new PlannedFailure('second unit of work');
            });
          }),
        ).rejects.toBeInstanceOf(PlannedFailure);
        await expect(failing.commit()).rejects.toBeInstanceOf(PlannedFailure);
        expect(await uow().read((r) => r.brands.findById(madeId))).toBeNull();

        const abandoned = new SharedTransaction(uow());
        const made = await ambient.run(abandoned, () => insertBrand(sharing(), 'Abandoned brand', clock.now()));
        await abandoned.rollback();
        expect(await uow().read((r) => r.brands.findById(made.id))).toBeNull();
      });

      it('is plain storage outside a shared transaction and after it ended', async () => {
        const clock = new FixedClock(T0);
        const outside = await insertBrand(sharing(), 'Outside brand', clock.now());
        expect(await uow().read((r) => r.brands.findById(outside.id))).toEqual(outside);
        const shared = new SharedTransaction(uow());
        await ambient.run(shared, async () => {
          await shared.commit();
          const after = await insertBrand(sharing(), 'After brand', clock.now());
          expect(await uow().read((r) => r.brands.findById(after.id))).toEqual(after);
        });
      });
    });
  });
}
