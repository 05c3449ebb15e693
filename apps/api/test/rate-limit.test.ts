import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { buildApp, useTestApp } from './support/test-app';

for (const dialect of testDialects()) {
  describe(`rate limiting per token [${dialect}]`, () => {
    const t = useTestApp(dialect, { rateLimit: { windowMs: 60_000, max: 3 } });
    let integrator: Integrator;

    beforeAll(async () => {
      integrator = await createIntegrator(t.storage, t.clock);
    });

    it('announces the policy on every authenticated response', async () => {
      const response = await request(t.server).get('/v10/customers').set(integrator.headers);
      expect(response.status).toBe(200);
      expect(response.headers['ratelimit-policy']).toBe('3;w=60');
      expect(response.headers['ratelimit']).toMatch(/^limit=3, remaining=2, reset=\d+$/);
    });

    it('answers 429 with Retry-After once the token used up its window, and counts other tokens apart', async () => {
      await request(t.server).get('/v10/customers').set(integrator.headers);
      await request(t.server).get('/v10/customers').set(integrator.headers);
      const limited = await request(t.server).get('/v10/customers').set(integrator.headers);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(limited.headers['ratelimit']).toMatch(/^limit=3, remaining=0, reset=\d+$/);
      expect(limited.body).toEqual({
        errors: [
          {
            status: 429,
            code: 'too_many_requests',
            title: 'Too many requests',
            detail: expect.stringContaining('3 requests per 60 seconds'),
          },
        ],
      });

      const other = await createIntegrator(t.storage, t.clock);
      expect((await request(t.server).get('/v10/customers').set(other.headers)).status).toBe(200);
    });

    it('shares the count between app instances on the same database (several processes)', async () => {
      const fresh = await createIntegrator(t.storage, t.clock);
      const second = buildApp(t.storage, t.clock, { config: { rateLimit: { windowMs: 60_000, max: 3 } } });
      await request(t.server).get('/v10/customers').set(fresh.headers);
      await request(second).get('/v10/customers').set(fresh.headers);
      await request(t.server).get('/v10/customers').set(fresh.headers);
      expect((await request(second).get('/v10/customers').set(fresh.headers)).status).toBe(429);
    });

    /** Two app instances (two processes) on the test's storage, counting the writes to the shared counter. */
    function twoInstances(limit: number) {
      const writes = { count: 0 };
      const counting = {
        ...t.storage,
        rateLimits: {
          ...t.storage.rateLimits,
          hit: (...args: Parameters<typeof t.storage.rateLimits.hit>) => {
            writes.count += 1;
            return t.storage.rateLimits.hit(...args);
          },
        },
      };
      const config = { config: { rateLimit: { windowMs: 60_000, max: limit } } };
      return { writes, instances: [buildApp(counting, t.clock, config), buildApp(counting, t.clock, config)] as const };
    }

    it('admits exactly the limit across two app instances that both keep serving the token, and refuses the rest from memory', async () => {
      const limit = 64;
      const fresh = await createIntegrator(t.storage, t.clock);
      const { writes, instances } = twoInstances(limit);

      const statuses: number[] = [];
      let writesByTheSecondRefusal = 0;
      for (let i = 0; i < 2 * limit; i += 1) {
        statuses.push(
          (
            await request(instances[i % 2]!)
              .get('/v10/customers?limit=1')
              .set(fresh.headers)
          ).status,
        );
        if (statuses.filter((status) => status === 429).length === 2 && writesByTheSecondRefusal === 0)
          writesByTheSecondRefusal = writes.count;
      }

      expect(statuses.filter((status) => status === 200)).toHaveLength(limit);
      expect(statuses.filter((status) => status === 429)).toHaveLength(limit);
      expect(writes.count).toBe(writesByTheSecondRefusal);
    });

    it('takes hits from the shared counter in leases: far from the limit, 120 requests cost a write per instance', async () => {
      const fresh = await createIntegrator(t.storage, t.clock);
      const { writes, instances } = twoInstances(100_000);

      for (let i = 0; i < 120; i += 1)
        expect(
          (
            await request(instances[i % 2]!)
              .get('/v10/customers?limit=1')
              .set(fresh.headers)
          ).status,
        ).toBe(200);

      // Leases of 100 hits: one per instance for its 60 requests.
      expect(writes.count).toBe(2);
    });

    it('leaves another instance at least the limit less one lease when the first instance stops serving the token', async () => {
      const limit = 64;
      const fresh = await createIntegrator(t.storage, t.clock);
      const config = { config: { rateLimit: { windowMs: 60_000, max: limit } } };
      const [first, second] = [buildApp(t.storage, t.clock, config), buildApp(t.storage, t.clock, config)];
      // The first instance takes a lease of limit / 32 = 2 hits and uses one.
      expect((await request(first).get('/v10/customers?limit=1').set(fresh.headers)).status).toBe(200);

      let admitted = 0;
      for (let i = 0; i < limit; i += 1)
        if ((await request(second).get('/v10/customers?limit=1').set(fresh.headers)).status === 200) admitted += 1;

      expect(admitted).toBe(limit - limit / 32);
      // The hits the first instance still holds are its own to hand out.
      expect((await request(first).get('/v10/customers?limit=1').set(fresh.headers)).status).toBe(200);
    });

    it('counts concurrent requests of one token exactly within an instance', async () => {
      const limit = 50;
      const fresh = await createIntegrator(t.storage, t.clock);
      const app = buildApp(t.storage, t.clock, { config: { rateLimit: { windowMs: 60_000, max: limit } } });

      const statuses = await Promise.all(
        Array.from(
          { length: 80 },
          async () => (await request(app).get('/v10/customers?limit=1').set(fresh.headers)).status,
        ),
      );

      expect(statuses.filter((status) => status === 200)).toHaveLength(limit);
      expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    });

    it('does not limit routes that need no token', async () => {
      for (let i = 0; i < 5; i += 1) expect((await request(t.server).get('/health')).status).toBe(200);
    });
  });
}
