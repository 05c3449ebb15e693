import request from 'supertest';
import express from 'express';
import { testDialects } from '@brand/persistence-kysely/testing';
import { address } from './support/customers';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

function newSupplier(supplierNumber: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { supplier_number: supplierNumber, name: `Supplier ${supplierNumber}`, currency: 'EUR', ...extra };
}

async function listSuppliers(app: express.Application, who: Integrator): Promise<Record<string, unknown>[]> {
  const response = await request(app).get('/v10/suppliers?includes[]=addresses&limit=100').set(who.headers);
  expect(response.status).toBe(200);
  return response.body.suppliers;
}

for (const dialect of testDialects()) {
  describe(`POST /production/suppliers/sync [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    it('creates suppliers with addresses and lists them', async () => {
      const response = await request(t.server)
        .post('/production/suppliers/sync')
        .set(brand.headers)
        .send({
          suppliers: [
            newSupplier('S-1', {
              email: 'orders@s1.example',
              addresses_sync_mode: 'replace',
              addresses_sync_key: 'address_title',
              addresses: [address('Mill', { country: 'IT' })],
            }),
            newSupplier('S-2', { currency: 'USD', active: false }),
          ],
        });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        suppliers: [
          { supplier_number: 'S-1', id: expect.any(Number), action: 'created' },
          { supplier_number: 'S-2', id: expect.any(Number), action: 'created' },
        ],
      });
      expect(await listSuppliers(t.app, brand)).toEqual([
        {
          id: response.body.suppliers[0].id,
          supplier_number: 'S-1',
          name: 'Supplier S-1',
          currency: 'EUR',
          active: true,
          email: 'orders@s1.example',
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
          addresses: [expect.objectContaining({ title: 'Mill', country: 'IT' })],
        },
        expect.objectContaining({ supplier_number: 'S-2', currency: 'USD', active: false, addresses: [] }),
      ]);
    });

    it('updates by supplier number, keeping what is not sent, and deletes', async () => {
      await request(t.server)
        .post('/production/suppliers/sync')
        .set(brand.headers)
        .send({ suppliers: [newSupplier('S-1', { email: 'a@s1.example' }), newSupplier('S-2')] });
      const response = await request(t.server)
        .post('/production/suppliers/sync')
        .set(brand.headers)
        .send({
          suppliers: [
            { supplier_number: 'S-1', name: 'Tessitura' },
            { supplier_number: 'S-2', delete: true },
          ],
        });
      expect(response.body.suppliers.map((s: { action: string }) => s.action)).toEqual(['updated', 'deleted']);
      expect(await listSuppliers(t.app, brand)).toEqual([
        expect.objectContaining({ supplier_number: 'S-1', name: 'Tessitura', email: 'a@s1.example' }),
      ]);
    });

    it('writes nothing when item 2 is invalid, and names it', async () => {
      const response = await request(t.server)
        .post('/production/suppliers/sync')
        .set(brand.headers)
        .send({ suppliers: [newSupplier('S-0'), newSupplier('S-1'), newSupplier('S-2', { currency: 'euro' })] });
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          source: { pointer: '/suppliers/2/currency' },
          detail: expect.stringContaining('suppliers[2].currency'),
        }),
      ]);
      expect(await listSuppliers(t.app, brand)).toEqual([]);
    });

    it('needs the production:write scope', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['production:read', 'customers:write'] });
      const response = await request(t.server)
        .post('/production/suppliers/sync')
        .set(reader.headers)
        .send({ suppliers: [newSupplier('S-1')] });
      expect(response.status).toBe(403);
      expect(response.body.errors[0].meta).toEqual({ missing_scopes: ['production:write'] });
      expect(await listSuppliers(t.app, reader)).toEqual([]);
    });

    it("does not show a brand another brand's suppliers", async () => {
      const other = await createIntegrator(t.storage, t.clock);
      await request(t.server)
        .post('/production/suppliers/sync')
        .set(brand.headers)
        .send({ suppliers: [newSupplier('S-1')] });
      expect(await listSuppliers(t.app, other)).toEqual([]);
    });
  });
}
