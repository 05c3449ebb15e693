import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

const filterBy = (key: string, operator: string, value: string) =>
  `filter_groups[0][filters][0][key]=${key}&filter_groups[0][filters][0][operator]=${operator}&filter_groups[0][filters][0][value]=${value}`;

for (const dialect of testDialects()) {
  describe(`claim causes in the back office [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    const causes = async (query = '') =>
      request(t.server)
        .get(`/v10/claim-causes${query ? `?${query}` : ''}`)
        .set(brand.headers);

    it('creates a claim cause, trimmed, and lists it', async () => {
      const created = await request(t.server)
        .post('/v10/claim-causes')
        .set(brand.headers)
        .send({ code: ' damaged ', name: 'Damaged on arrival ' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        claim_cause: {
          id: expect.any(Number),
          code: 'damaged',
          name: 'Damaged on arrival',
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
        },
      });
      const listed = await causes();
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({
        claim_causes: [created.body.claim_cause],
        has_more: false,
        next_cursor: null,
        total: 1,
      });
    });

    it('keeps two causes with one code (lines naming it are refused as ambiguous) and filters by code and name', async () => {
      const first = (
        await request(t.server)
          .post('/v10/claim-causes')
          .set(brand.headers)
          .send({ code: 'too_small', name: 'Too small' })
      ).body.claim_cause;
      const second = await request(t.server)
        .post('/v10/claim-causes')
        .set(brand.headers)
        .send({ code: 'TOO_SMALL', name: 'Too small (kids)' });
      const other = (
        await request(t.server)
          .post('/v10/claim-causes')
          .set(brand.headers)
          .send({ code: 'wrong_item', name: 'Wrong item' })
      ).body.claim_cause;
      expect(second.status).toBe(201);

      expect((await causes()).body.claim_causes).toEqual([first, second.body.claim_cause, other]);
      expect((await causes(filterBy('code', 'eq', 'wrong_item'))).body.claim_causes).toEqual([other]);
      expect((await causes(filterBy('name', 'ct', 'kids'))).body.claim_causes).toEqual([second.body.claim_cause]);
    });

    it('refuses a blank code and a missing name with 422 naming the field, and stores nothing', async () => {
      const blank = await request(t.server)
        .post('/v10/claim-causes')
        .set(brand.headers)
        .send({ code: '   ', name: 'Blank' });
      expect(blank.status).toBe(422);
      expect(blank.body.errors).toEqual([
        expect.objectContaining({ source: { pointer: '/code' }, detail: 'code must not be empty' }),
      ]);

      const nameless = await request(t.server).post('/v10/claim-causes').set(brand.headers).send({ code: 'damaged' });
      expect(nameless.status).toBe(422);
      expect(nameless.body.errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ source: { pointer: '/name' } })]),
      );

      const notText = await request(t.server)
        .post('/v10/claim-causes')
        .set(brand.headers)
        .send({ code: 7, name: 'Seven' });
      expect(notText.status).toBe(422);
      expect(notText.body.errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ source: { pointer: '/code' } })]),
      );

      expect((await causes()).body.total).toBe(0);
    });

    it('needs returns:write to create and returns:read to list', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['returns:read'] });
      const refused = await request(t.server)
        .post('/v10/claim-causes')
        .set(reader.headers)
        .send({ code: 'damaged', name: 'Damaged' });
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].meta.missing_scopes).toEqual(['returns:write']);
      expect((await request(t.server).get('/v10/claim-causes').set(reader.headers)).body.claim_causes).toEqual([]);

      const writer = await createIntegrator(t.storage, t.clock, { scopes: ['returns:write'] });
      const listed = await request(t.server).get('/v10/claim-causes').set(writer.headers);
      expect(listed.status).toBe(403);
      expect(listed.body.errors[0].meta.missing_scopes).toEqual(['returns:read']);
    });

    it("keeps another brand's causes out of sight", async () => {
      await request(t.server).post('/v10/claim-causes').set(brand.headers).send({ code: 'damaged', name: 'Damaged' });
      const other = await createIntegrator(t.storage, t.clock);
      expect((await request(t.server).get('/v10/claim-causes').set(other.headers)).body).toMatchObject({
        claim_causes: [],
        total: 0,
      });
    });
  });
}
