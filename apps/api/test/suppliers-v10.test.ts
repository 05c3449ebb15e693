import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { address } from './support/customers';
import { Integrator, createIntegrator } from './support/integrator';
import { withScopes } from './support/scoped-token';
import { addresses, problems, singleResource } from './support/single-resource';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;

/** A supplier body with the fields a new supplier needs. */
const newSupplier = (supplierNumber: string, extra: Body = {}): Body => ({
  supplier_number: supplierNumber,
  name: `Supplier ${supplierNumber}`,
  currency: 'EUR',
  ...extra,
});

for (const dialect of testDialects()) {
  describe(`/v10/suppliers: create, get and change one supplier [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    const { as, api, shown, listed, createdId } = singleResource(t, () => brand, {
      path: '/v10/suppliers',
      one: 'supplier',
      many: 'suppliers',
    });

    it('creates a supplier from the fields of a sync item, answers it as GET shows it with its Location, and lists it', async () => {
      const response = await api().post({
        supplier_number: 'S-1',
        name: ' Tessitura ',
        currency: 'USD',
        active: false,
        email: 'orders@tessitura.example',
        ...addresses('replace', address('Mill', { country: 'IT', city: 'Prato' })),
        colour: 'ignored, as the sync ignores unknown properties',
      });

      expect(response.status).toBe(201);
      const id = response.body.supplier.id as number;
      expect(response.headers['location']).toBe(`/v10/suppliers/${id}`);
      expect(response.body).toEqual({
        supplier: {
          id,
          supplier_number: 'S-1',
          name: 'Tessitura',
          currency: 'USD',
          active: false,
          email: 'orders@tessitura.example',
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
        },
      });
      const location = await request(t.server).get(response.headers['location']!).set(brand.headers);
      expect(location.body).toEqual(response.body);
      expect(await listed()).toEqual([response.body.supplier]);
      const detailed = await shown(id, '?includes[]=addresses');
      expect(await listed('&includes[]=addresses')).toEqual([detailed]);
      expect(detailed['addresses']).toEqual([
        expect.objectContaining({ id: expect.any(Number), title: 'Mill', city: 'Prato', country: 'IT' }),
      ]);
    });

    it('changes only the fields sent, the number included, and GET and the list show the change', async () => {
      const id = await createdId(
        newSupplier('S-1', { email: 'a@s.example', ...addresses('replace', address('Mill')) }),
      );
      const before = await shown(id, '?includes[]=addresses');
      t.clock.advance(60_000);

      const response = await api().patch(id, {
        supplier_number: 'S-1B',
        email: null,
        ...addresses('append', address('Office', { city: 'Milano' })),
      });

      expect(response.status).toBe(200);
      const { addresses: storedAddresses, ...plain } = before;
      const changed = { ...plain, supplier_number: 'S-1B', email: null, updated_at: t.clock.now() };
      expect(response.body).toEqual({ supplier: changed });
      expect(await shown(id)).toEqual(changed);
      expect(await listed()).toEqual([changed]);
      expect((await shown(id, '?includes[]=addresses'))['addresses']).toEqual([
        (storedAddresses as Body[])[0],
        expect.objectContaining({ title: 'Office', city: 'Milano' }),
      ]);

      // Nothing to change: the supplier as it was, updated_at kept.
      t.clock.advance(60_000);
      for (const body of [{}, { supplier_number: 'S-1B', name: 'Supplier S-1', currency: 'EUR' }]) {
        const same = await api().patch(id, body);
        expect(same.status).toBe(200);
        expect(same.body).toEqual({ supplier: changed });
      }
    });

    describe('refusals write nothing', () => {
      it('refuses a new supplier without number, name or currency, naming each field as the sync does', async () => {
        const response = await api().post({ supplier_number: 'S-1' });
        expect(response.status).toBe(422);
        expect(problems(response.body)).toEqual([
          ['/name', 'validation_failed', 'name is required for a new supplier'],
          ['/currency', 'validation_failed', 'currency is required for a new supplier'],
        ]);
        const noNumber = await api().post({ name: 'X', currency: 'EUR' });
        expect(problems(noNumber.body)).toEqual([
          ['/supplier_number', 'validation_failed', 'supplier_number must be a string'],
        ]);
        expect(await listed()).toEqual([]);
      });

      it('refuses values of the wrong JSON type or breaking a rule, naming each field', async () => {
        const types = await api().post({
          supplier_number: '',
          name: 5,
          currency: 'EUR',
          active: 'no',
          email: false,
        });
        expect(types.status).toBe(422);
        expect(problems(types.body)).toEqual([
          ['/supplier_number', 'validation_failed', 'supplier_number must be longer than or equal to 1 characters'],
          ['/name', 'validation_failed', 'name must be a string'],
          ['/active', 'validation_failed', 'active must be a boolean value'],
          ['/email', 'validation_failed', 'email must be a string'],
        ]);
        const rules = await api().post(
          newSupplier(' ', { currency: 'usd', ...addresses('replace', address('Mill'), address('MILL')) }),
        );
        expect(rules.status).toBe(422);
        expect(problems(rules.body)).toEqual([
          ['/supplier_number', 'validation_failed', 'supplier_number must not be empty'],
          ['/currency', 'validation_failed', 'currency must be a 3-letter ISO 4217 code such as EUR'],
          ['/addresses/1', 'validation_failed', 'addresses[1] repeats the address_title "mill" of an earlier address'],
        ]);
        expect(await listed()).toEqual([]);
      });

      it('refuses a change of the wrong type or a blank name, and keeps the supplier as it was', async () => {
        const id = await createdId(newSupplier('S-1'));
        const before = await shown(id, '?includes[]=addresses');
        t.clock.advance(60_000);
        const refusals: [Body, string][] = [
          [{ name: null }, '/name'],
          [{ name: ' ' }, '/name'],
          [{ supplier_number: 12 }, '/supplier_number'],
          [{ currency: 'EURO' }, '/currency'],
          [{ active: null }, '/active'],
          [{ addresses: [address('Mill')], addresses_sync_key: 'address_title' }, '/addresses_sync_mode'],
        ];
        for (const [body, pointer] of refusals) {
          const response = await api().patch(id, body);
          expect({ body, status: response.status }).toEqual({ body, status: 422 });
          expect(problems(response.body).map(([p]) => p)).toEqual([pointer]);
        }
        expect(await shown(id, '?includes[]=addresses')).toEqual(before);
      });

      it('refuses a supplier_number the brand already uses, on create and on change; another brand may use it', async () => {
        const first = await createdId(newSupplier('S-1'));
        const second = await createdId(newSupplier('S-2'));
        const secondBefore = await shown(second);

        const taken = await api().post(newSupplier('S-1'));
        expect(taken.status).toBe(422);
        expect(problems(taken.body)).toEqual([
          ['/supplier_number', 'duplicate', `supplier_number S-1 is taken by supplier ${first}`],
        ]);
        const renumbered = await api().patch(second, { supplier_number: 'S-1' });
        expect(problems(renumbered.body)).toEqual([
          ['/supplier_number', 'duplicate', `supplier_number S-1 is taken by supplier ${first}`],
        ]);
        expect(await shown(second)).toEqual(secondBefore);
        expect((await listed()).map((s) => s['supplier_number'])).toEqual(['S-1', 'S-2']);
        const other = await createIntegrator(t.storage, t.clock);
        expect((await as(other).post(newSupplier('S-1'))).status).toBe(201);
      });

      it("answers 404 for another brand's supplier, on GET and on PATCH, exactly as for a missing one, and changes nothing", async () => {
        const id = await createdId(newSupplier('S-1'));
        const before = await shown(id);
        const other = await createIntegrator(t.storage, t.clock);

        for (const response of [
          await as(other).get(id),
          await as(other).patch(id, { name: 'Hijacked' }),
          await api().get(999_999_999),
          await api().patch(999_999_999, { name: 'Ghost' }),
          await api().get('S-1'),
        ]) {
          expect(response.status).toBe(404);
          expect(response.body.errors[0]).toMatchObject({ code: 'not_found' });
        }
        expect(await shown(id)).toEqual(before);
      });

      it('refuses an unknown include naming the parameter', async () => {
        const id = await createdId(newSupplier('S-1'));
        const response = await api().get(id, '?includes[]=products');
        expect(response.status).toBe(422);
        expect(response.body.errors[0]).toMatchObject({
          code: 'invalid_list_query',
          source: { parameter: 'includes[0]' },
        });
      });
    });

    it('needs production:write to create or change and production:read to read; refused writes change nothing', async () => {
      const id = await createdId(newSupplier('S-1'));
      const before = await shown(id);
      const reader = await withScopes(t.storage, t.clock, brand, ['production:read']);
      const writer = await withScopes(t.storage, t.clock, brand, ['production:write']);

      const refusals = [
        await as(reader).post(newSupplier('S-9')),
        await as(reader).patch(id, { name: 'Nope' }),
        await as(writer).get(id),
      ];
      expect(refusals.map((r) => [r.status, r.body.errors[0].code, r.body.errors[0].meta])).toEqual([
        [403, 'insufficient_scope', { missing_scopes: ['production:write'] }],
        [403, 'insufficient_scope', { missing_scopes: ['production:write'] }],
        [403, 'insufficient_scope', { missing_scopes: ['production:read'] }],
      ]);
      expect((await as(reader).get(id)).body).toEqual({ supplier: before });
      expect(await listed()).toEqual([before]);
    });

    it('makes one supplier of two parallel creates with the same number: one 201 and one 422, every time', async () => {
      const numbers = ['RACE-1', 'RACE-2', 'RACE-3', 'RACE-4', 'RACE-5'];

      const responses = await Promise.all(
        numbers.flatMap((number) => [api().post(newSupplier(number)), api().post(newSupplier(number))]),
      );

      for (const [i, number] of numbers.entries()) {
        const pair = [responses[2 * i]!, responses[2 * i + 1]!];
        expect(pair.map((r) => r.status).sort()).toEqual([201, 422]);
        const created = pair.find((r) => r.status === 201)!.body.supplier as Body;
        expect(problems(pair.find((r) => r.status === 422)!.body)).toEqual([
          ['/supplier_number', 'duplicate', `supplier_number ${number} is taken by supplier ${created['id']}`],
        ]);
      }
      expect((await listed()).map((s) => s['supplier_number']).sort()).toEqual(numbers);
    });

    it('documents the create body as the sync item without delete, name and currency required, and the Location of a create', async () => {
      const document = (await request(t.server).get('/openapi.json')).body;
      const schemas = document.components.schemas;
      expect(schemas.CreateSupplierDto.required).toEqual(['supplier_number', 'name', 'currency']);
      expect(Object.keys(schemas.CreateSupplierDto.properties).sort()).toEqual(
        Object.keys(schemas.SupplierSyncItemDto.properties)
          .filter((name) => name !== 'delete')
          .sort(),
      );
      expect(schemas.UpdateSupplierDto.required).toBeUndefined();
      expect(document.paths['/v10/suppliers'].post.responses['201'].headers.Location).toMatchObject({
        schema: { type: 'string' },
      });
    });

    it('announces nothing: suppliers have no event types', async () => {
      const id = await createdId(newSupplier('S-1'));
      expect((await api().patch(id, { name: 'Renamed' })).status).toBe(200);
      const events = await request(t.server).get('/v10/events?limit=100').set(brand.headers);
      expect(events.status).toBe(200);
      expect(events.body.events).toEqual([]);
    });
  });
}
