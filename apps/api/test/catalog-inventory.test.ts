import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { seedProducts, seedStock } from './support/catalog-reads';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

interface StockPage {
  inventory: {
    id: number;
    variant_id: number;
    sku: string;
    inventory_location_id: number;
    in_stock: number;
    available: number;
  }[];
  has_more: boolean;
  next_cursor: string | null;
  total?: number;
}

for (const dialect of testDialects()) {
  describe(`v10 inventory [${dialect}]`, () => {
    const t = useTestApp(dialect);

    const get = (who: Integrator, path: string) => request(t.server).get(path).set(who.headers);
    const post = (who: Integrator, path: string, body: unknown) =>
      request(t.server)
        .post(path)
        .set(who.headers)
        .send(body as object);

    describe('inventory available', () => {
      let brand: Integrator;
      let mainId: number;
      let storeId: number;
      let variantIds: number[];

      beforeAll(async () => {
        brand = await createIntegrator(t.storage, t.clock);
        mainId = (await post(brand, '/v10/inventory-locations', { name: 'Main' })).body.inventory_location.id;
        storeId = (await post(brand, '/v10/inventory-locations', { name: 'Store' })).body.inventory_location.id;
        const [product] = await seedProducts(t.storage, t.clock, brand.brandId, [
          {
            itemNumber: 'JEANS',
            variants: [{ sku: 'JEANS-30', ean: '5901234123457' }, { sku: 'JEANS-32' }, { sku: 'JEANS-34' }],
          },
        ]);
        variantIds = product!.variants.map((v) => v.variant.id);
        await seedStock(t.storage, t.clock, brand.brandId, [
          { variantId: variantIds[0]!, inStock: 10, reserved: 4 },
          { variantId: variantIds[1]!, inStock: 3, reserved: 3 },
          { variantId: variantIds[2]!, inStock: 7 },
          { variantId: variantIds[0]!, inStock: 2, locationId: storeId },
          { variantId: variantIds[2]!, inStock: 1, locationId: storeId },
        ]);
      });

      async function page(query: string): Promise<StockPage> {
        const response = await get(brand, `/v10/inventory-available?${query}`);
        if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(response.body)}`);
        return response.body as StockPage;
      }

      it('answers stock rows under inventory, with available = in stock − reserved, and never a total', async () => {
        const first = await page('');
        // Rows come in balance-row order (their ids); which (variant, location) got which id is the storage's business.
        const ids = first.inventory.map((r) => r.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        expect(first.inventory).toHaveLength(5);
        expect(first).toEqual({
          inventory: expect.arrayContaining([
            {
              id: expect.any(Number),
              variant_id: variantIds[0],
              sku: 'JEANS-30',
              ean: '5901234123457',
              inventory_location_id: mainId,
              in_stock: 10,
              available: 6,
              updated_at: t.clock.now(),
            },
            {
              id: expect.any(Number),
              variant_id: variantIds[1],
              sku: 'JEANS-32',
              ean: null,
              inventory_location_id: mainId,
              in_stock: 3,
              available: 0,
              updated_at: t.clock.now(),
            },
            {
              id: expect.any(Number),
              variant_id: variantIds[2],
              sku: 'JEANS-34',
              ean: null,
              inventory_location_id: mainId,
              in_stock: 7,
              available: 7,
              updated_at: t.clock.now(),
            },
            {
              id: expect.any(Number),
              variant_id: variantIds[0],
              sku: 'JEANS-30',
              ean: '5901234123457',
              inventory_location_id: storeId,
              in_stock: 2,
              available: 2,
              updated_at: t.clock.now(),
            },
            {
              id: expect.any(Number),
              variant_id: variantIds[2],
              sku: 'JEANS-34',
              ean: null,
              inventory_location_id: storeId,
              in_stock: 1,
              available: 1,
              updated_at: t.clock.now(),
            },
          ]),
          has_more: false,
          next_cursor: null,
        });
      });

      it('refuses page, alone or with a cursor, naming the parameter', async () => {
        for (const query of ['page=0', 'page=1&limit=2']) {
          const response = await get(brand, `/v10/inventory-available?${query}`);
          expect(response.status).toBe(422);
          expect(response.body.errors).toEqual([
            expect.objectContaining({ code: 'invalid_list_query', source: { parameter: 'page', pointer: '/page' } }),
          ]);
          expect(response.body.errors[0].detail).toMatch(/cursor-only/);
        }
      });

      it('walks with limit and cursor, then with starting_after, to the same rows', async () => {
        const all = (await page('limit=100')).inventory.map((r) => r.id);
        const byCursor: number[] = [];
        let current = await page('limit=2');
        byCursor.push(...current.inventory.map((r) => r.id));
        while (current.has_more) {
          expect(current).not.toHaveProperty('total');
          current = await page(`limit=2&cursor=${encodeURIComponent(current.next_cursor!)}`);
          byCursor.push(...current.inventory.map((r) => r.id));
        }
        expect(byCursor).toEqual(all);

        const byStartingAfter: number[] = [];
        let last: number | null = null;
        for (;;) {
          const next: StockPage = await page(`limit=2${last === null ? '' : `&starting_after=${last}`}`);
          byStartingAfter.push(...next.inventory.map((r) => r.id));
          expect(next).not.toHaveProperty('total');
          if (!next.has_more) break;
          last = next.inventory[next.inventory.length - 1]!.id;
        }
        expect(byStartingAfter).toEqual(all);
      });

      it('filters by location, SKU and availability', async () => {
        const store = await page(
          `filter_groups[0][filters][0][key]=inventory_location_id&filter_groups[0][filters][0][value]=${storeId}`,
        );
        expect(store.inventory.map((r) => r.sku).sort()).toEqual(['JEANS-30', 'JEANS-34']);
        const sellable = await page(
          'filter_groups[0][filters][0][key]=available&filter_groups[0][filters][0][operator]=gt&filter_groups[0][filters][0][value]=0&filter_groups[0][filters][1][key]=sku&filter_groups[0][filters][1][operator]=in&filter_groups[0][filters][1][value][]=JEANS-30&filter_groups[0][filters][1][value][]=JEANS-32',
        );
        expect(sellable.inventory.map((r) => `${r.sku}@${r.inventory_location_id}`).sort()).toEqual(
          [`JEANS-30@${mainId}`, `JEANS-30@${storeId}`].sort(),
        );
      });

      it("keeps another brand's stock out of sight", async () => {
        const other = await createIntegrator(t.storage, t.clock);
        const response = await get(other, '/v10/inventory-available');
        expect(response.body).toEqual({ inventory: [], has_more: false, next_cursor: null });
      });

      it('needs catalog:read', async () => {
        const stranger = await createIntegrator(t.storage, t.clock, { scopes: ['orders:read'] });
        expect((await get(stranger, '/v10/inventory-available')).status).toBe(403);
      });
    });

    describe('inventory locations', () => {
      it("makes the brand's first location its default and lists both", async () => {
        const brand = await createIntegrator(t.storage, t.clock);
        const first = await post(brand, '/v10/inventory-locations', { name: 'Rotterdam DC' });
        expect(first.status).toBe(201);
        expect(first.body).toEqual({
          inventory_location: {
            id: expect.any(Number),
            name: 'Rotterdam DC',
            is_default: true,
            created_at: t.clock.now(),
            updated_at: t.clock.now(),
          },
        });
        const second = await post(brand, '/v10/inventory-locations', { name: 'Flagship store' });
        expect(second.body.inventory_location.is_default).toBe(false);
        const listed = await get(brand, '/v10/inventory-locations');
        expect(listed.body).toEqual({
          inventory_locations: [first.body.inventory_location, second.body.inventory_location],
          has_more: false,
          next_cursor: null,
          total: 2,
        });
        const defaults = await get(
          brand,
          '/v10/inventory-locations?filter_groups[0][filters][0][key]=is_default&filter_groups[0][filters][0][value]=true',
        );
        expect(defaults.body.inventory_locations).toEqual([first.body.inventory_location]);
      });

      it('keeps the default that stock created before any location was made', async () => {
        const brand = await createIntegrator(t.storage, t.clock);
        const [product] = await seedProducts(t.storage, t.clock, brand.brandId, [
          { itemNumber: 'CAP', variants: [{ sku: 'CAP-1' }] },
        ]);
        await seedStock(t.storage, t.clock, brand.brandId, [
          { variantId: product!.variants[0]!.variant.id, inStock: 1 },
        ]);
        const made = await post(brand, '/v10/inventory-locations', { name: 'Outlet' });
        expect(made.body.inventory_location.is_default).toBe(false);
        const listed = await get(brand, '/v10/inventory-locations');
        expect(
          listed.body.inventory_locations.map((l: { name: string; is_default: boolean }) => [l.name, l.is_default]),
        ).toEqual([
          ['Main warehouse', true],
          ['Outlet', false],
        ]);
      });

      it('ends with exactly one default when a brand creates its first locations concurrently', async () => {
        const brand = await createIntegrator(t.storage, t.clock);
        const responses = await Promise.all(
          ['A', 'B', 'C', 'D'].map((name) => post(brand, '/v10/inventory-locations', { name })),
        );
        expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201]);
        expect(responses.filter((r) => r.body.inventory_location.is_default)).toHaveLength(1);
        const listed = await get(brand, '/v10/inventory-locations?limit=10');
        expect(listed.body.inventory_locations.filter((l: { is_default: boolean }) => l.is_default)).toHaveLength(1);
        expect(listed.body.total).toBe(4);
      });

      it('refuses a location without a name, and stores nothing', async () => {
        const brand = await createIntegrator(t.storage, t.clock);
        for (const body of [{}, { name: '' }, { name: '   ' }, { name: 7 }]) {
          const response = await post(brand, '/v10/inventory-locations', body);
          expect(response.status).toBe(422);
          expect(response.body.errors).toEqual([
            expect.objectContaining({ code: 'validation_failed', source: { pointer: '/name' } }),
          ]);
        }
        expect((await get(brand, '/v10/inventory-locations')).body.total).toBe(0);
      });

      it('needs catalog:write to create and catalog:read to list', async () => {
        const reader = await createIntegrator(t.storage, t.clock, { scopes: ['catalog:read'] });
        const refused = await post(reader, '/v10/inventory-locations', { name: 'X' });
        expect(refused.status).toBe(403);
        expect(refused.body.errors[0].meta.missing_scopes).toEqual(['catalog:write']);
        expect((await get(reader, '/v10/inventory-locations')).status).toBe(200);
      });
    });
  });
}
