import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { seedProducts, seedStock } from './support/catalog-reads';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

for (const dialect of testDialects()) {
  describe(`v10 variants [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;
    let other: Integrator;
    let teeId: number;
    let skus: Map<string, number>;
    let foreignVariantId: number;
    let costPriceSetId: number;

    const get = (who: Integrator, path: string) => request(t.server).get(path).set(who.headers);

    beforeAll(async () => {
      brand = await createIntegrator(t.storage, t.clock);
      other = await createIntegrator(t.storage, t.clock);
      costPriceSetId = await t.storage.uow.run(async (tx) => {
        const [id] = await tx.ids.next('cost_price_sets');
        await tx.costPriceSets.insert({
          id: id!,
          brandId: brand.brandId,
          label: 'Factory',
          currency: 'USD',
          isDefault: false,
          createdAt: t.clock.now(),
        });
        return id!;
      });
      const stored = await seedProducts(t.storage, t.clock, brand.brandId, [
        {
          itemNumber: 'TEE',
          product: { name: 'Organic tee' },
          variants: [
            {
              sku: 'TEE-S',
              ean: '4006381333931',
              attributes: { size: 'S' },
              prices: { EUR: { sales: 1000, rec: 2500, offer: 900 } },
              costPrices: [{ costPriceSetId, costPrice: 412 }],
            },
            { sku: 'TEE-M', attributes: { size: 'M' }, overrides: { archived: true } },
          ],
        },
        { itemNumber: 'SOCK', variants: [{ sku: 'SOCK-1', overrides: { b2cAvailable: false } }] },
      ]);
      teeId = stored[0]!.product.id;
      skus = new Map(stored.flatMap((a) => a.variants.map((v) => [v.variant.sku, v.variant.id] as [string, number])));
      await seedStock(t.storage, t.clock, brand.brandId, [{ variantId: skus.get('TEE-S')!, inStock: 8, reserved: 2 }]);
      const [foreign] = await seedProducts(t.storage, t.clock, other.brandId, [
        { itemNumber: 'TEE', variants: [{ sku: 'TEE-S' }] },
      ]);
      foreignVariantId = foreign!.variants[0]!.variant.id;
    });

    it('lists the variants of the brand with their item numbers, and nothing of another brand', async () => {
      const response = await get(brand, '/v10/variants');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ has_more: false, next_cursor: null, total: 3 });
      expect(
        response.body.variants.map((v: Record<string, unknown>) => [
          v['sku'],
          v['item_number'],
          v['archived'],
          v['b2c_available'],
        ]),
      ).toEqual([
        ['TEE-S', 'TEE', false, true],
        ['TEE-M', 'TEE', true, true],
        ['SOCK-1', 'SOCK', false, false],
      ]);
      const theirs = await get(other, '/v10/variants');
      expect(theirs.body.variants.map((v: Record<string, unknown>) => v['id'])).toEqual([foreignVariantId]);
    });

    it('includes prices, inventory, cost prices and the product', async () => {
      const response = await get(
        brand,
        `/v10/variants?includes[]=prices&includes[]=inventory&includes[]=cost_prices&includes[]=product&filter_groups[0][filters][0][key]=sku&filter_groups[0][filters][0][value]=TEE-S`,
      );
      expect(response.status).toBe(200);
      const [variant] = response.body.variants;
      expect(variant).toMatchObject({
        id: skus.get('TEE-S'),
        product_id: teeId,
        ean: '4006381333931',
        attributes: { size: 'S' },
        prices: [{ currency: 'EUR', sales_price: 10, rec_sales_price: 25, offer_price: 9, b2c_offer_price: null }],
        inventory: [
          {
            inventory_location_id: expect.any(Number),
            in_stock: 8,
            reserved: 2,
            available: 6,
            updated_at: t.clock.now(),
          },
        ],
        cost_prices: [{ cost_price_set_id: costPriceSetId, currency: 'USD', label: 'Factory', cost_price: 4.12 }],
      });
      expect(variant.product).toMatchObject({ id: teeId, item_number: 'TEE', name: 'Organic tee' });
      expect(variant.product).not.toHaveProperty('variants');
    });

    it('filters by product and by archived state', async () => {
      const byProduct = await get(
        brand,
        `/v10/variants?filter_groups[0][filters][0][key]=product_id&filter_groups[0][filters][0][value]=${teeId}`,
      );
      expect(byProduct.body.variants.map((v: Record<string, unknown>) => v['sku'])).toEqual(['TEE-S', 'TEE-M']);
      const archived = await get(
        brand,
        '/v10/variants?filter_groups[0][filters][0][key]=archived&filter_groups[0][filters][0][value]=true',
      );
      expect(archived.body.variants.map((v: Record<string, unknown>) => v['sku'])).toEqual(['TEE-M']);
    });

    it('walks the variants by cursor with a limit', async () => {
      const first = await get(brand, '/v10/variants?limit=2');
      expect(first.body).toMatchObject({ has_more: true, total: 3 });
      const second = await get(brand, `/v10/variants?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
      expect(second.body.variants.map((v: Record<string, unknown>) => v['sku'])).toEqual(['SOCK-1']);
      expect(second.body).toEqual(expect.not.objectContaining({ total: expect.anything() }));
      // A products cursor is not a variants cursor.
      const products = await get(brand, '/v10/products?limit=1');
      const mixed = await get(brand, `/v10/variants?cursor=${encodeURIComponent(products.body.next_cursor)}`);
      expect(mixed.status).toBe(422);
    });

    it('shows one variant with the includes of the list', async () => {
      const response = await get(brand, `/v10/variants/${skus.get('TEE-S')}?includes[]=prices&includes[]=product`);
      expect(response.status).toBe(200);
      expect(response.body.variant).toMatchObject({
        sku: 'TEE-S',
        item_number: 'TEE',
        prices: [expect.objectContaining({ currency: 'EUR' })],
        product: { id: teeId },
      });
      expect(response.body.variant).not.toHaveProperty('inventory');
      const listed = await get(brand, `/v10/variants?includes[]=prices&includes[]=product&limit=1`);
      expect(response.body.variant).toEqual(listed.body.variants[0]);
    });

    it("answers 404 for another brand's variant exactly as for a missing one", async () => {
      const foreign = await get(brand, `/v10/variants/${foreignVariantId}`);
      const missing = await get(brand, '/v10/variants/987654');
      expect([foreign.status, missing.status]).toEqual([404, 404]);
      expect(foreign.body.errors[0]).toMatchObject({ code: 'not_found', title: missing.body.errors[0].title });
      expect(foreign.body.errors[0].detail).toBe(`variant ${foreignVariantId} was not found`);
    });
  });
}
