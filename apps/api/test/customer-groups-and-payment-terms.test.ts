import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

for (const dialect of testDialects()) {
  describe(`customer groups and payment terms [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    it('creates a customer group and lists it', async () => {
      const created = await request(t.server)
        .post('/v10/customer-groups')
        .set(brand.headers)
        .send({ code: 'RETAIL', name: 'Retail' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        customer_group: {
          id: expect.any(Number),
          code: 'RETAIL',
          name: 'Retail',
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
        },
      });
      const listed = await request(t.server).get('/v10/customer-groups').set(brand.headers);
      expect(listed.body).toEqual({
        customer_groups: [created.body.customer_group],
        has_more: false,
        next_cursor: null,
        total: 1,
      });
    });

    it('creates payment terms and lists them, filtered by days', async () => {
      const net30 = await request(t.server)
        .post('/v10/payment-terms')
        .set(brand.headers)
        .send({ code: 'NET30', name: 'Net 30', days: 30 });
      await request(t.server)
        .post('/v10/payment-terms')
        .set(brand.headers)
        .send({ code: 'NOW', name: 'Prepaid', days: 0 });
      expect(net30.status).toBe(201);
      expect(net30.body.payment_terms).toEqual({
        id: expect.any(Number),
        code: 'NET30',
        name: 'Net 30',
        days: 30,
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      });
      const listed = await request(t.server)
        .get(
          '/v10/payment-terms?filter_groups[0][filters][0][key]=days&filter_groups[0][filters][0][operator]=gt&filter_groups[0][filters][0][value]=0',
        )
        .set(brand.headers);
      expect(listed.body).toEqual({
        payment_terms: [net30.body.payment_terms],
        has_more: false,
        next_cursor: null,
        total: 1,
      });
    });

    it('refuses payment terms with a negative number of days', async () => {
      const response = await request(t.server)
        .post('/v10/payment-terms')
        .set(brand.headers)
        .send({ code: 'X', name: 'X', days: -1 });
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([
        expect.objectContaining({ source: { pointer: '/days' }, detail: 'days must not be less than 0' }),
      ]);
      expect((await request(t.server).get('/v10/payment-terms').set(brand.headers)).body.total).toBe(0);
    });

    it('needs customers:write to create and customers:read to list', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['customers:read'] });
      expect(
        (await request(t.server).post('/v10/customer-groups').set(reader.headers).send({ code: 'A', name: 'A' }))
          .status,
      ).toBe(403);
      const writer = await createIntegrator(t.storage, t.clock, { scopes: ['customers:write'] });
      const listed = await request(t.server).get('/v10/payment-terms').set(writer.headers);
      expect(listed.status).toBe(403);
      expect(listed.body.errors[0].meta.missing_scopes).toEqual(['customers:read']);
    });

    it("keeps another brand's groups out of sight", async () => {
      await request(t.server).post('/v10/customer-groups').set(brand.headers).send({ code: 'RETAIL', name: 'Retail' });
      const other = await createIntegrator(t.storage, t.clock);
      expect((await request(t.server).get('/v10/customer-groups').set(other.headers)).body.customer_groups).toEqual([]);
      // The same code is free in another brand.
      expect(
        (
          await request(t.server)
            .post('/v10/customer-groups')
            .set(other.headers)
            .send({ code: 'RETAIL', name: 'Retail' })
        ).status,
      ).toBe(201);
    });
  });
}
