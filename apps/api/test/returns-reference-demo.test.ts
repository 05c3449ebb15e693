import request from 'supertest';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { seedDemo } from '../src/cli/demo';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { useTestApp } from './support/test-app';
import { testPasswordHasher } from './support/test-password-hasher';

for (const dialect of oneTestDialect()) {
  describe(`demo brand returns reference data [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('seeds two claim causes, a custom portal and the service portal, readable over the API with the demo token', async () => {
      const demo = await seedDemo({
        uow: t.storage.uow,
        clock: t.clock,
        hasher: nodeSecretHasher,
        passwordHasher: testPasswordHasher,
      });
      const headers = { Authorization: `Bearer ${demo.accessToken}`, 'X-Service-App-Key': demo.appKey };

      const causes = await request(t.server).get('/v10/claim-causes').set(headers);
      expect(causes.status).toBe(200);
      expect(causes.body.claim_causes.map((c: { code: string; name: string }) => [c.code, c.name])).toEqual([
        ['damaged', 'Damaged on arrival'],
        ['too_small', 'Too small'],
      ]);
      const portals = await request(t.server).get('/v10/return-portals').set(headers);
      expect(portals.status).toBe(200);
      expect(
        portals.body.return_portals.map((p: { name: string; type: string; requires_claim_causes: boolean }) => [
          p.name,
          p.type,
          p.requires_claim_causes,
        ]),
      ).toEqual([
        ['Webshop returns', 'custom', false],
        ['Customer service', 'service', true],
      ]);
      expect(demo.seeded.join(' ')).toContain(`public id ${portals.body.return_portals[0].public_id as string}`);
    });
  });
}
