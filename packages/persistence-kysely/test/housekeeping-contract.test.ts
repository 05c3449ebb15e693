import { describeHousekeepingContract } from '@brand/core/testing';
import { Storage } from '../src';
import { openTestStorage, testDialects } from '../src/testing';

for (const dialect of testDialects()) {
  // The housekeeping contract the in-memory adapter passes, on every dialect of this run.
  describeHousekeepingContract(`Kysely housekeeping [${dialect}]`, () => openTestStorage(dialect));

  describe(`closed windows in the shared rate-limit counters [${dialect}]`, () => {
    let storage: Storage;
    beforeAll(async () => {
      storage = await openTestStorage(dialect);
    });
    afterAll(async () => {
      await storage.close();
    });

    it("deletes the API rate limits' closed windows with the log-in throttle's, and keeps their open ones", async () => {
      const nowMs = Date.parse('2026-09-01T08:00:00.000Z');
      const windowMs = 60_000;
      await storage.rateLimits.hit('token:closed', windowMs, nowMs - windowMs, 5);
      await storage.rateLimits.hit('token:open', windowMs, nowMs - windowMs + 1, 5);

      expect(await storage.uow.run((tx) => tx.loginAttempts.deleteClosedWindows(nowMs, 100))).toBe(1);
      // Hit as of an instant inside each window: a kept window goes on counting, a deleted one starts again.
      expect(await storage.rateLimits.hit('token:closed', windowMs, nowMs - 1, 1)).toEqual({
        hits: 1,
        resetAtMs: nowMs - 1 + windowMs,
      });
      expect(await storage.rateLimits.hit('token:open', windowMs, nowMs, 1)).toEqual({
        hits: 6,
        resetAtMs: nowMs + 1,
      });
    });
  });
}
