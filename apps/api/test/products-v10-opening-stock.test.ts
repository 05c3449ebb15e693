import request from 'supertest';
import { DEFAULT_LOCATION_NAME } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { announcingInventory } from './support/inventory-events';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
type Event = { id: string; type: string; created_at: string; data: { object: Body } };
type Problem = { source?: { pointer: string }; detail: string };

const MINUTE = 60_000;

/** The pointers and details of an error answer, in order. */
const problems = (body: { errors: Problem[] }) => body.errors.map((e) => [e.source?.pointer, e.detail]);

for (const dialect of testDialects()) {
  describe(`opening stock of products and variants created on /v10 [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeEach(async () => {
      // A brand per test: no locations, no stock, an empty feed.
      brand = await createIntegrator(t.storage, t.clock);
    });

    const post = (path: string, body: Body) => request(t.server).post(path).set(brand.headers).send(body);
    const patch = (path: string, body: Body) => request(t.server).patch(path).set(brand.headers).send(body);
    async function get(path: string): Promise<Body> {
      const response = await request(t.server).get(path).set(brand.headers);
      expect(response.status).toBe(200);
      return response.body as Body;
    }
    const feed = async () => (await get('/v10/events?limit=100'))['events'] as Event[];
    const inventoryRows = async () => (await get('/v10/inventory-available?limit=100'))['inventory'] as Body[];
    const locations = async () => (await get('/v10/inventory-locations?limit=100'))['inventory_locations'] as Body[];
    const products = async () => (await get('/v10/products?limit=100&includes[]=variants'))['products'] as Body[];
    const ledger = async (variantId: number) =>
      (await t.storage.uow.read((r) => r.stock.movements(brand.brandId, variantId, 20)))
        .reverse()
        .map((m) => [m.inStockDelta, m.reason, m.note, m.userId]);
    async function newLocation(name: string): Promise<number> {
      const response = await post('/v10/inventory-locations', { name });
      expect(response.status).toBe(201);
      return response.body.inventory_location.id as number;
    }
    /** The events announcing these rows, in this order, at the clock's instant. */
    const announcing = (rows: Body[]) => announcingInventory(t.clock, rows);

    describe('POST /v10/products', () => {
      it('books each variant’s opening stock by the sync’s rules, answers it as GET shows it, and announces it', async () => {
        const response = await post('/v10/products?includes[]=variants.inventory', {
          item_number: 'TEE',
          name: 'Tee',
          variants: [
            {
              sku: 'TEE-M',
              attributes: { size: 'M' },
              inventory: [{ quantity: 10, text: 'opening count' }, { adjustment: -3 }],
            },
            { sku: 'TEE-L', attributes: { size: 'L' }, inventory: [{ quantity: 0 }] },
          ],
        });

        expect(response.status).toBe(201);
        const product = response.body.product as { id: number; variants: (Body & { id: number })[] };
        const [warehouse] = await locations();
        expect(warehouse).toMatchObject({ name: DEFAULT_LOCATION_NAME, is_default: true });
        const [m, l] = product.variants;
        expect(m!['inventory']).toEqual([
          expect.objectContaining({ inventory_location_id: warehouse!['id'], in_stock: 7, reserved: 0, available: 7 }),
        ]);
        // A quantity that moves nothing books nothing, as in the sync.
        expect(l!['inventory']).toEqual([]);
        expect(await get(`/v10/products/${product.id}?includes[]=variants.inventory`)).toEqual(response.body);
        expect(await ledger(m!.id)).toEqual([
          [10, 'sync_quantity', 'opening count', brand.userId],
          [-3, 'sync_adjustment', null, brand.userId],
        ]);
        expect(await ledger(l!.id)).toEqual([]);

        const rows = await inventoryRows();
        expect(rows).toEqual([expect.objectContaining({ sku: 'TEE-M', in_stock: 7, available: 7 })]);
        const events = await feed();
        expect(events.map((e) => e.type)).toEqual(['product.created', 'inventory.changed']);
        expect(events.slice(1)).toEqual(announcing(rows));
      });

      it('books and announces exactly what a one-item product sync of the same variants does', async () => {
        await newLocation('Warehouse');
        const shop = await newLocation('Shop');
        const variants = (prefix: string) => [
          { sku: `${prefix}-M`, attributes: { size: 'M' }, inventory: [{ quantity: 4, inventory_location_id: shop }] },
          { sku: `${prefix}-L`, attributes: { size: 'L' }, inventory: [{ adjustment: 2, text: 'found' }] },
        ];
        const created = await post('/v10/products?includes[]=variants', {
          item_number: 'ONE',
          name: 'One',
          variants: variants('ONE'),
        });
        expect(created.status).toBe(201);
        const afterCreate = await feed();
        const synced = await post('/products/sync', {
          products: [{ item_number: 'SYN', name: 'Syn', variants: variants('SYN') }],
        });
        expect(synced.status).toBe(200);
        const afterSync = (await feed()).slice(afterCreate.length);

        /** What a variant's ledger, balances and announcements are, without its SKU and ids. */
        const booked = async (variantId: number, sku: string, events: Event[]) => ({
          ledger: await ledger(variantId),
          rows: (await inventoryRows())
            .filter((row) => row['sku'] === sku)
            .map(({ inventory_location_id, in_stock, available }) => ({ inventory_location_id, in_stock, available })),
          announced: events
            .filter((e) => e.type === 'inventory.changed' && e.data.object['sku'] === sku)
            .map((e) => [e.data.object['inventory_location_id'], e.data.object['in_stock']]),
        });
        const createdIds = (created.body.product.variants as { id: number }[]).map((v) => v.id);
        const syncedIds = (synced.body.products[0].variants as { id: number }[]).map((v) => v.id);
        for (const [k, size] of ['M', 'L'].entries()) {
          const viaCreate = await booked(createdIds[k]!, `ONE-${size}`, afterCreate);
          expect(viaCreate.ledger).toHaveLength(1);
          expect(viaCreate).toEqual(await booked(syncedIds[k]!, `SYN-${size}`, afterSync));
        }
        expect(afterCreate.map((e) => e.type)).toEqual(afterSync.map((e) => e.type));
      });

      it('refuses stock the sync refuses, naming the field in the body, and writes nothing: no product, stock, location or event', async () => {
        const variant = (inventory: unknown[]) => ({ sku: 'X-M', attributes: { size: 'M' }, inventory });
        const refusals = [
          await post('/v10/products', { item_number: 'X', name: 'X', variants: [variant([{ quantity: -1 }])] }),
          await post('/v10/products', { item_number: 'X', name: 'X', variants: [variant([{ quantity: '5' }])] }),
          await post('/v10/products', { item_number: 'X', name: 'X', variants: [variant({} as unknown as unknown[])] }),
          await post('/v10/products', {
            item_number: 'X',
            name: 'X',
            variants: [
              variant([
                { quantity: 5 },
                { quantity: 1, inventory_location_id: 999999 },
                { adjustment: -6 },
                { quantity: 1, adjustment: 1 },
              ]),
            ],
          }),
          await post('/v10/products', {
            item_number: 'GIFT',
            name: 'Gift card',
            no_inventory: true,
            variants: [{ sku: 'GIFT-50', attributes: { value: '50' }, inventory: [{ quantity: 1 }] }],
          }),
        ];

        expect(refusals.map((r) => r.status)).toEqual([422, 422, 422, 422, 422]);
        expect(refusals.map((r) => problems(r.body).map(([pointer]) => pointer))).toEqual([
          ['/variants/0/inventory/0/quantity'],
          ['/variants/0/inventory/0/quantity'],
          ['/variants/0/inventory'],
          [
            '/variants/0/inventory/1/inventory_location_id',
            '/variants/0/inventory/3',
            '/variants/0/inventory/2/adjustment',
          ],
          ['/variants/0/inventory'],
        ]);
        expect(problems(refusals[3]!.body)).toEqual([
          [
            '/variants/0/inventory/1/inventory_location_id',
            'variants[0].inventory[1].inventory_location_id names inventory location 999999, which does not exist',
          ],
          [
            '/variants/0/inventory/3',
            'variants[0].inventory[3] must give exactly one of quantity (sets the stock) and adjustment (changes it)',
          ],
          [
            '/variants/0/inventory/2/adjustment',
            'variants[0].inventory[2].adjustment would take the stock below 0 (in stock 5, adjustment -6)',
          ],
        ]);
        expect(problems(refusals[4]!.body)).toEqual([
          [
            '/variants/0/inventory',
            'variants[0].inventory cannot be sent: product "GIFT" has no_inventory, so no stock is kept for it',
          ],
        ]);
        expect(await products()).toEqual([]);
        expect(await inventoryRows()).toEqual([]);
        expect(await locations()).toEqual([]);
        expect(await feed()).toEqual([]);
      });
    });

    describe('POST /v10/products/{id}/variants', () => {
      it('books the new variant’s opening stock, answers it as GET shows it, and announces it after product.updated', async () => {
        const warehouse = await newLocation('Warehouse');
        const shop = await newLocation('Shop');
        const tee = await post('/v10/products', {
          item_number: 'TEE',
          name: 'Tee',
          variants: [{ sku: 'TEE-M', attributes: { size: 'M' } }],
        });
        expect(tee.status).toBe(201);
        const productId = tee.body.product.id as number;
        const seen = await feed();
        t.clock.advance(MINUTE);

        const response = await post(`/v10/products/${productId}/variants?includes[]=inventory`, {
          sku: 'TEE-L',
          attributes: { size: 'L' },
          inventory: [{ quantity: 4, inventory_location_id: shop }, { adjustment: 1 }],
        });

        expect(response.status).toBe(201);
        const variant = response.body.variant as Body & { id: number };
        // One row per location, in the order of the locations, as GET shows them.
        expect(variant['inventory']).toEqual([
          expect.objectContaining({ inventory_location_id: warehouse, in_stock: 1, available: 1 }),
          expect.objectContaining({ inventory_location_id: shop, in_stock: 4, available: 4 }),
        ]);
        expect(await get(`/v10/variants/${variant.id}?includes[]=inventory`)).toEqual(response.body);
        expect(await ledger(variant.id)).toEqual([
          [4, 'sync_quantity', null, brand.userId],
          [1, 'sync_adjustment', null, brand.userId],
        ]);
        const rows = (await inventoryRows()).filter((row) => row['sku'] === 'TEE-L');
        expect(rows).toHaveLength(2);
        const events = (await feed()).slice(seen.length);
        expect(events.map((e) => e.type)).toEqual(['product.updated', 'inventory.changed', 'inventory.changed']);
        expect(events.slice(1)).toEqual(expect.arrayContaining(announcing(rows)));
      });

      it('refuses stock the sync refuses, naming the field, and adds no variant, stock or event', async () => {
        const created = await post('/v10/products?includes[]=variants', {
          item_number: 'GIFT',
          name: 'Gift card',
          no_inventory: true,
          variants: [{ sku: 'GIFT-50', attributes: { value: '50' } }],
        });
        expect(created.status).toBe(201);
        const tee = await post('/v10/products', {
          item_number: 'TEE',
          name: 'Tee',
          variants: [{ sku: 'TEE-M', attributes: { size: 'M' } }],
        });
        const before = await products();
        const seen = await feed();

        const noInventory = await post(`/v10/products/${created.body.product.id}/variants`, {
          sku: 'GIFT-100',
          attributes: { value: '100' },
          inventory: [{ quantity: 1 }],
        });
        const negative = await post(`/v10/products/${tee.body.product.id}/variants`, {
          sku: 'TEE-L',
          attributes: { size: 'L' },
          inventory: [{ quantity: -2 }],
        });
        const unknown = await post(`/v10/products/${tee.body.product.id}/variants`, {
          sku: 'TEE-L',
          attributes: { size: 'L' },
          inventory: [{ quantity: 2, inventory_location_id: 999999 }],
        });

        expect([noInventory.status, negative.status, unknown.status]).toEqual([422, 422, 422]);
        expect(problems(noInventory.body)).toEqual([
          ['/inventory', 'inventory cannot be sent: product "GIFT" has no_inventory, so no stock is kept for it'],
        ]);
        expect(problems(negative.body).map(([pointer]) => pointer)).toEqual(['/inventory/0/quantity']);
        expect(problems(unknown.body)).toEqual([
          [
            '/inventory/0/inventory_location_id',
            'inventory[0].inventory_location_id names inventory location 999999, which does not exist',
          ],
        ]);
        expect(await products()).toEqual(before);
        expect(await inventoryRows()).toEqual([]);
        expect(await feed()).toEqual(seen);
      });
    });

    describe('PATCH /v10/variants/{id}', () => {
      it('still refuses inventory by name, pointing to the sync and the documents that move stock, and moves nothing', async () => {
        const created = await post('/v10/products?includes[]=variants.inventory', {
          item_number: 'TEE',
          name: 'Tee',
          variants: [{ sku: 'TEE-M', attributes: { size: 'M' }, inventory: [{ quantity: 3 }] }],
        });
        expect(created.status).toBe(201);
        const variantId = created.body.product.variants[0].id as number;
        const seen = await feed();

        const response = await patch(`/v10/variants/${variantId}`, { inventory: [{ quantity: 9 }] });

        expect(response.status).toBe(422);
        expect(problems(response.body)).toEqual([
          [
            '/inventory',
            expect.stringMatching(
              /^inventory is not accepted here: the stock of an existing variant moves through POST \/products\/sync .* orders, shipments and receipts/,
            ),
          ],
        ]);
        expect(await get(`/v10/products/${created.body.product.id}?includes[]=variants.inventory`)).toEqual(
          created.body,
        );
        expect(await feed()).toEqual(seen);
      });
    });
  });
}
