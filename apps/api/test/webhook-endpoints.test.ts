import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;

for (const dialect of testDialects()) {
  describe(`webhook endpoints [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    const create = (body: Body, who: Integrator = brand) =>
      request(t.server).post('/v10/webhook-endpoints').set(who.headers).send(body);
    const get = (id: unknown, who: Integrator = brand) =>
      request(t.server)
        .get(`/v10/webhook-endpoints/${String(id)}`)
        .set(who.headers);

    it('creates an endpoint, shows its secret once, and never in reads', async () => {
      const created = await create({
        url: 'https://erp.example.com/hooks',
        events: ['order.created', 'order.cancelled'],
        description: 'ERP',
      });
      expect(created.status).toBe(201);
      const endpoint = created.body.webhook_endpoint as Body;
      expect(endpoint).toEqual({
        id: expect.any(Number),
        url: 'https://erp.example.com/hooks',
        events: ['order.created', 'order.cancelled'],
        description: 'ERP',
        enabled: true,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      });
      // 32 random bytes behind the prefix.
      expect(Buffer.from((endpoint['secret'] as string).slice('whsec_'.length), 'base64')).toHaveLength(32);

      const { secret: _secret, ...withoutSecret } = endpoint;
      const read = await get(endpoint['id']);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ webhook_endpoint: withoutSecret });
      const listed = await request(t.server).get('/v10/webhook-endpoints').set(brand.headers);
      expect(listed.body).toEqual({ webhook_endpoints: [withoutSecret], has_more: false, next_cursor: null, total: 1 });
    });

    it('refuses a body that breaks the rules with a 422 naming each field, and writes nothing', async () => {
      for (const [body, pointer] of [
        [{ url: 'ftp://files.example.com', events: ['*'] }, '/url'],
        [{ url: 'https://erp.example.com', events: ['order.exploded'] }, '/events/0'],
        [{ url: 'https://erp.example.com', events: [] }, '/events'],
        [{ url: 'https://erp.example.com', events: ['*', 'order.created'] }, '/events'],
        [{ url: 'https://erp.example.com', events: 'order.created' }, '/events'],
        [{ events: ['*'] }, '/url'],
        [{ url: 'https://erp.example.com', events: ['*'], enabled: 'yes' }, '/enabled'],
      ] as const) {
        const refused = await create(body);
        expect(refused.status).toBe(422);
        expect(refused.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain(pointer);
      }
      const listed = await request(t.server).get('/v10/webhook-endpoints').set(brand.headers);
      expect(listed.body.webhook_endpoints).toEqual([]);
    });

    it('changes what a PATCH sends, deletes, and rotates the secret (shown once more)', async () => {
      const endpoint = (await create({ url: 'https://erp.example.com/a', events: ['*'] })).body
        .webhook_endpoint as Body;
      t.clock.advance(60_000);
      const patched = await request(t.server)
        .patch(`/v10/webhook-endpoints/${String(endpoint['id'])}`)
        .set(brand.headers)
        .send({ enabled: false, events: ['order.approved'] });
      expect(patched.status).toBe(200);
      expect(patched.body.webhook_endpoint).toEqual({
        id: endpoint['id'],
        url: 'https://erp.example.com/a',
        events: ['order.approved'],
        description: null,
        enabled: false,
        created_at: endpoint['created_at'],
        updated_at: t.clock.now(),
      });
      expect((await get(endpoint['id'])).body).toEqual(patched.body);

      const rotated = await request(t.server)
        .post(`/v10/webhook-endpoints/${String(endpoint['id'])}/rotate-secret`)
        .set(brand.headers);
      expect(rotated.status).toBe(200);
      expect(rotated.body.webhook_endpoint).toEqual({
        ...patched.body.webhook_endpoint,
        secret: expect.stringMatching(/^whsec_/),
        updated_at: t.clock.now(),
      });
      expect(rotated.body.webhook_endpoint.secret).not.toBe(endpoint['secret']);

      const deleted = await request(t.server)
        .delete(`/v10/webhook-endpoints/${String(endpoint['id'])}`)
        .set(brand.headers);
      expect(deleted.status).toBe(204);
      expect((await get(endpoint['id'])).status).toBe(404);
    });

    it("answers another brand's endpoint like a missing one, and needs the webhooks scopes", async () => {
      const endpoint = (await create({ url: 'https://erp.example.com/a', events: ['*'] })).body
        .webhook_endpoint as Body;
      const neighbour = await createIntegrator(t.storage, t.clock);
      expect((await get(endpoint['id'], neighbour)).status).toBe(404);
      const patched = await request(t.server)
        .patch(`/v10/webhook-endpoints/${String(endpoint['id'])}`)
        .set(neighbour.headers)
        .send({ enabled: false });
      expect(patched.status).toBe(404);
      expect(
        (
          await request(t.server)
            .delete(`/v10/webhook-endpoints/${String(endpoint['id'])}`)
            .set(neighbour.headers)
        ).status,
      ).toBe(404);
      expect((await get(endpoint['id'])).body.webhook_endpoint.enabled).toBe(true);

      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['webhooks:read'] });
      expect((await create({ url: 'https://erp.example.com/b', events: ['*'] }, reader)).status).toBe(403);
      expect((await request(t.server).get('/v10/webhook-endpoints').set(reader.headers)).status).toBe(200);
    });
  });
}
