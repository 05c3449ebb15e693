import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

const filterBy = (key: string, operator: string, value: string) =>
  `filter_groups[0][filters][0][key]=${key}&filter_groups[0][filters][0][operator]=${operator}&filter_groups[0][filters][0][value]=${value}`;

for (const dialect of testDialects()) {
  describe(`return portals in the back office [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    const createPortal = (body: object, who: Integrator = brand) =>
      request(t.server).post('/v10/return-portals').set(who.headers).send(body);
    const portals = async (query = '') =>
      request(t.server)
        .get(`/v10/return-portals${query ? `?${query}` : ''}`)
        .set(brand.headers);

    it('creates a custom portal with a generated public id, not requiring claim causes by default, and lists it', async () => {
      const created = await createPortal({ name: 'Webshop returns', type: 'custom' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        return_portal: {
          id: expect.any(Number),
          public_id: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
          name: 'Webshop returns',
          type: 'custom',
          requires_claim_causes: false,
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
        },
      });
      const listed = await portals();
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({
        return_portals: [created.body.return_portal],
        has_more: false,
        next_cursor: null,
        total: 1,
      });
    });

    it('creates the internal service portal and partner portals, each with its own public id, and filters by type', async () => {
      const service = (await createPortal({ name: 'Service desk', type: 'service', requires_claim_causes: true })).body
        .return_portal;
      const partner = (await createPortal({ name: 'Returnista', type: 'returnista' })).body.return_portal;
      const custom = (await createPortal({ name: 'Webshop', type: 'custom' })).body.return_portal;
      expect(service).toMatchObject({ type: 'service', requires_claim_causes: true });
      expect(partner).toMatchObject({ type: 'returnista', requires_claim_causes: false });
      expect(new Set([service.public_id, partner.public_id, custom.public_id]).size).toBe(3);

      expect((await portals()).body.return_portals).toEqual([service, partner, custom]);
      expect((await portals(filterBy('type', 'eq', 'service'))).body.return_portals).toEqual([service]);
      expect((await portals(filterBy('requires_claim_causes', 'eq', 'true'))).body.return_portals).toEqual([service]);
      expect((await portals(filterBy('public_id', 'eq', partner.public_id))).body.return_portals).toEqual([partner]);
    });

    it('refuses a type that is not a portal type, a missing name and a non-boolean requires_claim_causes with 422, storing nothing', async () => {
      const badType = await createPortal({ name: 'Webshop', type: 'Custom Portal' });
      expect(badType.status).toBe(422);
      expect(badType.body.errors).toEqual([
        expect.objectContaining({
          source: { pointer: '/type' },
          detail: expect.stringContaining('service, custom or a partner portal type'),
        }),
      ]);

      const noType = await createPortal({ name: 'Webshop' });
      expect(noType.status).toBe(422);
      expect(noType.body.errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ source: { pointer: '/type' } })]),
      );

      const blankName = await createPortal({ name: '  ', type: 'custom' });
      expect(blankName.status).toBe(422);
      expect(blankName.body.errors).toEqual([
        expect.objectContaining({ source: { pointer: '/name' }, detail: 'name must not be empty' }),
      ]);

      const notBoolean = await createPortal({ name: 'Webshop', type: 'custom', requires_claim_causes: 'yes' });
      expect(notBoolean.status).toBe(422);
      expect(notBoolean.body.errors).toEqual([
        expect.objectContaining({ source: { pointer: '/requires_claim_causes' } }),
      ]);

      const nullFlag = await createPortal({ name: 'Webshop', type: 'custom', requires_claim_causes: null });
      expect(nullFlag.status).toBe(422);

      expect((await portals()).body.total).toBe(0);
    });

    it('needs returns:write to create and returns:read to list', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['returns:read'] });
      const refused = await createPortal({ name: 'Webshop', type: 'custom' }, reader);
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].meta.missing_scopes).toEqual(['returns:write']);

      const writer = await createIntegrator(t.storage, t.clock, { scopes: ['returns:write'] });
      const listed = await request(t.server).get('/v10/return-portals').set(writer.headers);
      expect(listed.status).toBe(403);
      expect(listed.body.errors[0].meta.missing_scopes).toEqual(['returns:read']);
    });

    it("keeps another brand's portals out of sight", async () => {
      await createPortal({ name: 'Webshop', type: 'custom' });
      const other = await createIntegrator(t.storage, t.clock);
      expect((await request(t.server).get('/v10/return-portals').set(other.headers)).body).toMatchObject({
        return_portals: [],
        total: 0,
      });
    });
  });
}
