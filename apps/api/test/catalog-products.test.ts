import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { seedProducts, seedStock } from './support/catalog-reads';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

interface ProductPage {
  products: Record<string, unknown>[];
  has_more: boolean;
  next_cursor: string | null;
  total?: number;
}

const filter = (key: string, operator: string, value: string, index = 0) =>
  `filter_groups[0][filters][${index}][key]=${key}&filter_groups[0][filters][${index}][operator]=${operator}&filter_groups[0][filters][${index}][value]=${encodeURIComponent(value)}`;

for (const dialect of testDialects()) {
  describe(`v10 products [${dialect}]`, () => {
    const t = useTestApp(dialect);

    async function get(who: Integrator, path: string) {
      return request(t.server).get(path).set(who.headers);
    }

    async function page(who: Integrator, query: string): Promise<ProductPage> {
      const response = await get(who, `/v10/products?${query}`);
      if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body as ProductPage;
    }

    describe('walking the list', () => {
      let brand: Integrator;
      let ids: number[];

      beforeAll(async () => {
        brand = await createIntegrator(t.storage, t.clock);
        const stored = await seedProducts(
          t.storage,
          t.clock,
          brand.brandId,
          Array.from({ length: 45 }, (_, i) => ({
            itemNumber: `WALK-${String(i + 1).padStart(2, '0')}`,
            variants: [{ sku: `WALK-${i + 1}-M` }],
          })),
        );
        ids = stored.map((a) => a.product.id).sort((a, b) => a - b);
      });

      it('walks 45 products by cursor in pages of 20, 20 and 5, with a total on the first page only', async () => {
        const pages = [await page(brand, '')];
        while (pages[pages.length - 1]!.has_more)
          pages.push(await page(brand, `cursor=${encodeURIComponent(pages[pages.length - 1]!.next_cursor!)}`));
        expect(pages.map((p) => p.products.length)).toEqual([20, 20, 5]);
        expect(pages.map((p) => p.total)).toEqual([45, undefined, undefined]);
        expect(pages[2]).toMatchObject({ has_more: false, next_cursor: null });
        expect(pages.flatMap((p) => p.products.map((product) => product['id']))).toEqual(ids);
        // Without includes a product carries no variants.
        expect(pages[0]!.products[0]).not.toHaveProperty('variants');
      });

      it('continues after a given product with starting_after, and pages by offset with page', async () => {
        const after = await page(brand, `starting_after=${ids[39]}&limit=100`);
        expect(after.products.map((p) => p['id'])).toEqual(ids.slice(40));
        expect(after).not.toHaveProperty('total');
        const second = await page(brand, 'limit=10&page=1');
        expect(second.products.map((p) => p['id'])).toEqual(ids.slice(10, 20));
        expect(second.total).toBe(45);
      });

      it('walks by cursor in descending id order when sorted so', async () => {
        const first = await page(brand, 'limit=30&sort[0][key]=id&sort[0][direction]=DESC');
        const rest = await page(
          brand,
          `limit=30&sort[0][key]=id&sort[0][direction]=DESC&cursor=${encodeURIComponent(first.next_cursor!)}`,
        );
        expect([...first.products, ...rest.products].map((p) => p['id'])).toEqual([...ids].reverse());
        const switched = await get(brand, `/v10/products?cursor=${encodeURIComponent(first.next_cursor!)}`);
        expect(switched.status).toBe(422);
      });

      it('filters by item number, and refuses an unknown filter key', async () => {
        const found = await page(brand, filter('item_number', 'sw', 'walk-4'));
        expect(found.products.map((p) => p['item_number'])).toEqual([
          'WALK-40',
          'WALK-41',
          'WALK-42',
          'WALK-43',
          'WALK-44',
          'WALK-45',
        ]);
        expect(found.total).toBe(6);
        const unknown = await get(brand, `/v10/products?${filter('sku', 'eq', 'x')}`);
        expect(unknown.status).toBe(422);
        expect(unknown.body.errors[0]).toMatchObject({
          code: 'invalid_list_query',
          source: { parameter: 'filter_groups[0][filters][0][key]' },
        });
      });

      it("keeps another brand's products out of sight", async () => {
        const other = await createIntegrator(t.storage, t.clock);
        expect(await page(other, '')).toEqual({ products: [], has_more: false, next_cursor: null, total: 0 });
        const foreign = await get(other, `/v10/products/${ids[0]}`);
        expect(foreign.status).toBe(404);
      });
    });

    describe('one product and its includes', () => {
      let brand: Integrator;
      let productId: number;
      let variantIds: number[];
      let refs: {
        topId: number;
        subId: number;
        setId: number;
        supplierId: number;
        localeId: number;
        imageId: number;
        dropId: number;
      };

      beforeAll(async () => {
        brand = await createIntegrator(t.storage, t.clock);
        const drop = await request(t.server)
          .post('/v10/drops')
          .set(brand.headers)
          .send({ code: 'AW26', name: 'Autumn/Winter 2026' });
        const locale = await request(t.server)
          .post('/v10/product-locales')
          .set(brand.headers)
          .send({ code: 'de', name: 'German' });
        const partial = await t.storage.uow.run(async (tx) => {
          const [topId, subId] = await tx.ids.next('categories', 2);
          await tx.categories.insert({
            id: topId!,
            brandId: brand.brandId,
            parentId: null,
            name: 'Knitwear',
            createdAt: t.clock.now(),
            updatedAt: t.clock.now(),
          });
          await tx.categories.insert({
            id: subId!,
            brandId: brand.brandId,
            parentId: topId!,
            name: 'Cardigans',
            createdAt: t.clock.now(),
            updatedAt: t.clock.now(),
          });
          const [setId] = await tx.ids.next('cost_price_sets');
          await tx.costPriceSets.insert({
            id: setId!,
            brandId: brand.brandId,
            label: 'EUR default',
            currency: 'EUR',
            isDefault: true,
            createdAt: t.clock.now(),
          });
          const [supplierId] = await tx.ids.next('suppliers');
          await tx.suppliers.save({
            id: supplierId!,
            brandId: brand.brandId,
            supplierNumber: 'MILL-1',
            name: 'Yarn Mill',
            currency: 'EUR',
            active: true,
            email: null,
            addresses: [],
            createdAt: t.clock.now(),
            updatedAt: t.clock.now(),
          });
          return { topId: topId!, subId: subId!, setId: setId!, supplierId: supplierId! };
        });
        const [product] = await seedProducts(t.storage, t.clock, brand.brandId, [
          {
            itemNumber: 'CARDI-01',
            product: {
              name: 'Merino cardigan',
              description: 'Soft.',
              weight: 1500,
              weightType: 'kg',
              releaseDate: '2026-09-01',
              meta: { season: 'AW26' },
              minOrderQuantity: 6,
              customSort: 3,
              orderColliOnly: true,
              colli: [6, 12],
              url: 'https://shop.example/cardi',
              metaTitle: 'Cardigan',
              metaDescription: 'A cardigan',
              tags: ['wool', 'bestseller'],
              categoryIds: [partial.subId],
            },
            suppliers: [
              {
                supplierId: partial.supplierId,
                primary: true,
                leadTimeType: 'weeks',
                leadTimeFrom: 2,
                leadTimeTo: 4,
                costPriceSetId: partial.setId,
              },
            ],
            translations: [
              {
                localeId: locale.body.product_locale.id,
                name: 'Merino-Strickjacke',
                description: null,
                metaTitle: null,
                metaDescription: null,
              },
            ],
            variants: [
              {
                sku: 'CARDI-01-M',
                ean: '8712345678906',
                attributes: { color: 'Navy', size: 'M' },
                dropIds: [drop.body.drop.id],
                prices: {
                  EUR: { sales: 4995, rec: 9900, offer: null, b2cOffer: 7920 },
                  SEK: { sales: 55000, rec: 110000 },
                },
                costPrices: [{ costPriceSetId: partial.setId, costPrice: 1875 }],
                overrides: { weight: 1250, weightType: 'kg', noos: true },
              },
              { sku: 'CARDI-01-L', attributes: { color: 'Navy', size: 'L' } },
            ],
          },
        ]);
        productId = product!.product.id;
        variantIds = product!.variants.map((v) => v.variant.id);
        const imageId = await t.storage.uow.run(async (tx) => {
          const [id] = await tx.ids.next('product_images');
          await tx.productImages.saveAll([
            {
              id: id!,
              brandId: brand.brandId,
              productId,
              blobKey: 'sha256-abc',
              sourceUrl: 'https://cdn.example/cardi.jpg',
              existanceKey: null,
              contentType: 'image/jpeg',
              sizeBytes: 2048,
              alt: 'Front',
              filename: 'cardi.jpg',
              sort: 1,
              sortB2c: null,
              variantIds: [variantIds[0]!],
              createdAt: t.clock.now(),
              updatedAt: t.clock.now(),
            },
          ]);
          return id!;
        });
        refs = { ...partial, localeId: locale.body.product_locale.id, imageId, dropId: drop.body.drop.id };
      });

      it('shows every field of the product, and no related objects unless included', async () => {
        const response = await get(brand, `/v10/products/${productId}`);
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          product: {
            id: productId,
            item_number: 'CARDI-01',
            name: 'Merino cardigan',
            description: 'Soft.',
            active: true,
            make_to_order_b2b: false,
            make_to_order_b2c: false,
            meta: { season: 'AW26' },
            weight: 1.5,
            weight_type: 'kg',
            no_inventory: false,
            release_date: '2026-09-01',
            noos: false,
            min_order_quantity: 6,
            custom_sort: 3,
            order_colli_only: true,
            colli: [6, 12],
            url: 'https://shop.example/cardi',
            meta_title: 'Cardigan',
            meta_description: 'A cardigan',
            tags: ['wool', 'bestseller'],
            use_sort_b2c: false,
            subbrand_id: null,
            collection_id: null,
            category_ids: [refs.subId],
            created_at: t.clock.now(),
            updated_at: t.clock.now(),
          },
        });
      });

      it('includes variants with prices as decimals, inventory per location and cost prices with their set', async () => {
        const outlet = await request(t.server)
          .post('/v10/inventory-locations')
          .set(brand.headers)
          .send({ name: 'Outlet' });
        expect(outlet.body.inventory_location.is_default).toBe(true);
        await seedStock(t.storage, t.clock, brand.brandId, [
          { variantId: variantIds[0]!, inStock: 10, reserved: 3 },
          { variantId: variantIds[0]!, inStock: 2, locationId: outlet.body.inventory_location.id },
        ]);
        const warehouse = await request(t.server)
          .post('/v10/inventory-locations')
          .set(brand.headers)
          .send({ name: 'Warehouse' });
        await seedStock(t.storage, t.clock, brand.brandId, [
          { variantId: variantIds[0]!, inStock: 5, locationId: warehouse.body.inventory_location.id },
        ]);

        const query = 'includes[]=variants.prices&includes[]=variants.inventory&includes[]=variants.cost_prices';
        const listed = await page(brand, query);
        const detail = await get(brand, `/v10/products/${productId}?${query}`);
        expect(detail.body.product).toEqual(listed.products[0]);
        const [medium, large] = listed.products[0]!['variants'] as Record<string, unknown>[];
        expect(medium).toEqual({
          id: variantIds[0],
          product_id: productId,
          item_number: 'CARDI-01',
          sku: 'CARDI-01-M',
          ean: '8712345678906',
          attributes: { color: 'Navy', size: 'M' },
          archived: false,
          b2c_available: true,
          make_to_order_b2b: null,
          make_to_order_b2c: null,
          noos: true,
          weight: 1.25,
          weight_type: 'kg',
          release_date: null,
          meta: {},
          position: 0,
          drop_ids: [refs.dropId],
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
          prices: expect.arrayContaining([
            { currency: 'EUR', sales_price: 49.95, rec_sales_price: 99, offer_price: null, b2c_offer_price: 79.2 },
            { currency: 'SEK', sales_price: 550, rec_sales_price: 1100, offer_price: null, b2c_offer_price: null },
          ]),
          inventory: [
            {
              inventory_location_id: outlet.body.inventory_location.id,
              in_stock: 12,
              reserved: 3,
              available: 9,
              updated_at: t.clock.now(),
            },
            {
              inventory_location_id: warehouse.body.inventory_location.id,
              in_stock: 5,
              reserved: 0,
              available: 5,
              updated_at: t.clock.now(),
            },
          ],
          cost_prices: [{ cost_price_set_id: refs.setId, currency: 'EUR', label: 'EUR default', cost_price: 18.75 }],
        });
        expect((medium!['prices'] as unknown[]).length).toBe(2);
        expect(large).toMatchObject({ sku: 'CARDI-01-L', prices: [], inventory: [], cost_prices: [] });
      });

      it('includes only the variants, without prices, when asked for variants alone', async () => {
        const listed = await page(brand, 'includes[]=variants');
        const variants = listed.products[0]!['variants'] as Record<string, unknown>[];
        expect(variants.map((v) => v['sku'])).toEqual(['CARDI-01-M', 'CARDI-01-L']);
        expect(variants[0]).not.toHaveProperty('prices');
        expect(variants[0]).not.toHaveProperty('inventory');
      });

      it('includes categories with their top and sub names, suppliers, translations and images', async () => {
        const response = await get(
          brand,
          `/v10/products/${productId}?includes[]=categories&includes[]=suppliers&includes[]=translations&includes[]=images`,
        );
        expect(response.status).toBe(200);
        const { product } = response.body;
        expect(product).not.toHaveProperty('variants');
        expect(product.categories).toEqual([
          {
            id: refs.subId,
            parent_id: refs.topId,
            name: 'Cardigans',
            top_category: 'Knitwear',
            sub_category: 'Cardigans',
            created_at: t.clock.now(),
            updated_at: t.clock.now(),
          },
        ]);
        expect(product.suppliers).toEqual([
          {
            supplier_id: refs.supplierId,
            supplier_number: 'MILL-1',
            name: 'Yarn Mill',
            primary: true,
            lead_time_type: 'weeks',
            lead_time_from: 2,
            lead_time_to: 4,
            cost_price_set_id: refs.setId,
          },
        ]);
        expect(product.translations).toEqual([
          {
            product_locale_id: refs.localeId,
            product_locale_code: 'de',
            name: 'Merino-Strickjacke',
            description: null,
            meta_title: null,
            meta_description: null,
          },
        ]);
        expect(product.images).toEqual([
          {
            id: refs.imageId,
            url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/media\/sha256-abc$/),
            source_url: 'https://cdn.example/cardi.jpg',
            existance_key: null,
            alt: 'Front',
            filename: 'cardi.jpg',
            content_type: 'image/jpeg',
            size_bytes: 2048,
            sort: 1,
            sort_b2c: null,
            variant_ids: [variantIds[0]],
            created_at: t.clock.now(),
            updated_at: t.clock.now(),
          },
        ]);
      });

      it('filters on product fields such as active and release date', async () => {
        await seedProducts(t.storage, t.clock, brand.brandId, [{ itemNumber: 'OLD-01', product: { active: false } }]);
        const inactive = await page(brand, filter('active', 'eq', 'false'));
        expect(inactive.products.map((p) => p['item_number'])).toEqual(['OLD-01']);
        const released = await page(brand, filter('release_date', 'gte', '2026-08-01'));
        expect(released.products.map((p) => p['item_number'])).toEqual(['CARDI-01']);
      });

      it('answers 404 for a missing product and for an id that is not a number', async () => {
        for (const id of ['999999', 'abc', '-1']) {
          const response = await get(brand, `/v10/products/${id}`);
          expect(response.status).toBe(404);
          expect(response.body.errors[0]).toMatchObject({ status: 404, code: 'not_found' });
        }
      });

      it('refuses an unknown include on the list and on one product', async () => {
        for (const path of [
          '/v10/products?includes[]=stock',
          `/v10/products/${productId}?includes[]=variants&includes[]=stock`,
        ]) {
          const response = await get(brand, path);
          expect(response.status).toBe(422);
          expect(response.body.errors).toEqual([
            expect.objectContaining({
              code: 'invalid_list_query',
              source: expect.objectContaining({ parameter: expect.stringMatching(/^includes\[/) }),
            }),
          ]);
        }
      });

      it('needs catalog:read', async () => {
        const stranger = await createIntegrator(t.storage, t.clock, { scopes: ['customers:read'] });
        for (const path of ['/v10/products', `/v10/products/${productId}`]) {
          const response = await get(stranger, path);
          expect(response.status).toBe(403);
          expect(response.body.errors[0].meta.missing_scopes).toEqual(['catalog:read']);
        }
      });
    });
  });
}
