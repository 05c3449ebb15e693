import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely';
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

    it('does not limit routes that need no token', async () => {
      for (let i = 0; i < 5; i += 1) expect((await request(t.server).get('/health')).status).toBe(200);
    });
  });
}
