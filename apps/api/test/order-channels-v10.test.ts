import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { withScopes } from './support/scoped-token';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;

for (const dialect of testDialects()) {
  describe(`GET /v10/order-channels/{id} [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    const get = (who: Integrator, idOrPublicId: number | string) =>
      request(t.server).get(`/v10/order-channels/${idOrPublicId}`).set(who.headers);

    async function createdChannel(who: Integrator, body: Body): Promise<Body> {
      const response = await request(t.server).post('/v10/order-channels').set(who.headers).send(body);
      expect(response.status).toBe(201);
      return response.body.order_channel as Body;
    }

    it('answers a channel by its id and by its public id, as the list shows it', async () => {
      const webshop = await createdChannel(brand, { name: 'Webshop', order_type: 'b2c', auto_approve: true });
      const erp = await createdChannel(brand, { name: 'ERP', order_type: 'b2b' });
      const list = await request(t.server).get('/v10/order-channels').set(brand.headers);
      expect(list.body.order_channels).toEqual([webshop, erp]);

      for (const channel of [webshop, erp]) {
        const byId = await get(brand, channel['id'] as number);
        const byPublicId = await get(brand, channel['public_id'] as string);
        expect([byId.status, byPublicId.status]).toEqual([200, 200]);
        expect(byId.body).toEqual({ order_channel: channel });
        expect(byPublicId.body).toEqual({ order_channel: channel });
      }
      expect(webshop).toMatchObject({ name: 'Webshop', order_type: 'b2c', auto_approve: true, drop_id: null });
    });

    it("answers 404 for another brand's channel, by id or public id, exactly as for a missing one", async () => {
      const channel = await createdChannel(brand, { name: 'Webshop', order_type: 'b2c' });
      const other = await createIntegrator(t.storage, t.clock);

      for (const response of [
        await get(other, channel['id'] as number),
        await get(other, channel['public_id'] as string),
        await get(brand, 999_999_999),
        await get(brand, 'A'.repeat(24)),
        // Longer than any id a path may carry: read as a public id, which no channel has.
        await get(brand, '1'.repeat(24)),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body.errors[0]).toMatchObject({ status: 404, code: 'not_found' });
      }
      expect((await get(other, channel['id'] as number)).body.errors[0].detail).toBe(
        `order channel ${channel['id']} was not found`,
      );
    });

    it('needs orders:read', async () => {
      const channel = await createdChannel(brand, { name: 'Webshop', order_type: 'b2c' });
      const catalogOnly = await withScopes(t.storage, t.clock, brand, ['catalog:read']);
      const reader = await withScopes(t.storage, t.clock, brand, ['orders:read']);

      const refused = await get(catalogOnly, channel['id'] as number);
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].meta).toEqual({ missing_scopes: ['orders:read'] });
      expect((await get(reader, channel['public_id'] as string)).body).toEqual({ order_channel: channel });
    });
  });
}
