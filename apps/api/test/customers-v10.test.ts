import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { address, newCustomer } from './support/customers';
import { Integrator, createIntegrator } from './support/integrator';
import { withScopes } from './support/scoped-token';
import { addresses, problems, singleResource } from './support/single-resource';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
type Event = { id: string; type: string; created_at: string; data: { object: Body } };

for (const dialect of testDialects()) {
  describe(`/v10/customers: create, get and change one customer [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let brand: Integrator;

    beforeEach(async () => {
      // A brand per test: every test starts from an empty customer list and event feed.
      brand = await createIntegrator(t.storage, t.clock);
    });

    const { as, api, shown, listed, createdId } = singleResource(t, () => brand, {
      path: '/v10/customers',
      one: 'customer',
      many: 'customers',
    });

    async function seedTermsAndGroup(): Promise<{ termsId: number; groupId: number }> {
      const terms = await request(t.server)
        .post('/v10/payment-terms')
        .set(brand.headers)
        .send({ code: 'NET30', name: 'Net 30 days', days: 30 });
      const group = await request(t.server)
        .post('/v10/customer-groups')
        .set(brand.headers)
        .send({ code: 'WHOLESALE', name: 'Wholesale' });
      expect([terms.status, group.status]).toEqual([201, 201]);
      return { termsId: terms.body.payment_terms.id, groupId: group.body.customer_group.id };
    }

    it('creates a customer from the fields of a sync item, answers it as GET shows it with its Location, and lists it', async () => {
      const { termsId, groupId } = await seedTermsAndGroup();

      const response = await api().post({
        customer_number: 'C-1',
        name: '  Anna Shop  ',
        currency: 'EUR',
        discount_percentage: 12.5,
        active: false,
        email: 'buyer@anna.example',
        telephone: '+31 20 123',
        vat_number: 'NL001',
        eori_number: 'NL-EORI-1',
        customer_group: { customer_group_code: 'WHOLESALE' },
        // The sample body's spelling of payment_terms, as the sync takes it.
        payment_term: { payment_term_code: 'NET30' },
        ...addresses('replace', address('Invoice'), address('Delivery', { city: 'Utrecht', remote_erp_id: 'E-2' })),
        // Unknown properties are ignored, as the sync ignores them (ERPs send their whole record).
        colour: 'red',
      });

      expect(response.status).toBe(201);
      const customer = response.body.customer as Body;
      const id = customer['id'] as number;
      expect(response.headers['location']).toBe(`/v10/customers/${id}`);
      expect(response.body).toEqual({
        customer: {
          id,
          customer_number: 'C-1',
          name: 'Anna Shop',
          currency: 'EUR',
          discount_percentage: 12.5,
          active: false,
          email: 'buyer@anna.example',
          telephone: '+31 20 123',
          vat_number: 'NL001',
          eori_number: 'NL-EORI-1',
          customer_group_id: groupId,
          payment_terms_id: termsId,
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
        },
      });
      const location = await request(t.server).get(response.headers['location']!).set(brand.headers);
      expect(location.status).toBe(200);
      expect(location.body).toEqual(response.body);
      expect(await listed()).toEqual([customer]);

      // The detail takes the list's includes and shows what the list shows with them.
      const includes = '&includes[]=addresses&includes[]=customer_group&includes[]=payment_terms';
      const detailed = await shown(id, `?${includes.slice(1)}`);
      expect(await listed(includes)).toEqual([detailed]);
      expect(detailed).toMatchObject({
        customer_group: { id: groupId, code: 'WHOLESALE', name: 'Wholesale' },
        payment_terms: { id: termsId, code: 'NET30', days: 30 },
        addresses: [
          expect.objectContaining({ title: 'Invoice', city: 'Amsterdam', remote_erp_id: null }),
          expect.objectContaining({ title: 'Delivery', city: 'Utrecht', remote_erp_id: 'E-2' }),
        ],
      });
    });

    it('creates with the defaults of a new sync customer when only number, name and currency are sent', async () => {
      const id = await createdId(newCustomer('C-MIN'));
      expect(await shown(id, '?includes[]=addresses')).toEqual({
        id,
        customer_number: 'C-MIN',
        name: 'Customer C-MIN',
        currency: 'EUR',
        discount_percentage: 0,
        active: true,
        email: null,
        telephone: null,
        vat_number: null,
        eori_number: null,
        customer_group_id: null,
        payment_terms_id: null,
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
        addresses: [],
      });
    });

    it('changes only the fields sent, and GET and the list show the change', async () => {
      const { termsId } = await seedTermsAndGroup();
      const id = await createdId(
        newCustomer('C-1', {
          email: 'old@anna.example',
          telephone: '+31 1',
          customer_group: { customer_group_code: 'WHOLESALE' },
          ...addresses('replace', address('Invoice')),
        }),
      );
      const before = await shown(id, '?includes[]=addresses');
      t.clock.advance(60_000);

      const response = await api().patch(id, {
        name: 'Renamed',
        email: null,
        discount_percentage: 7.25,
        customer_group: null,
        payment_terms: { payment_terms_id: termsId },
        ...addresses('append', address('Warehouse', { city: 'Rotterdam' })),
      });

      expect(response.status).toBe(200);
      const { addresses: storedAddresses, ...plain } = before;
      const changed = {
        ...plain,
        name: 'Renamed',
        email: null,
        discount_percentage: 7.25,
        customer_group_id: null,
        payment_terms_id: termsId,
        updated_at: t.clock.now(),
      };
      expect(response.body).toEqual({ customer: changed });
      expect(await shown(id)).toEqual(changed);
      expect(await listed()).toEqual([changed]);
      // append kept the stored address (and its id) and added the new one.
      expect((await shown(id, '?includes[]=addresses'))['addresses']).toEqual([
        (storedAddresses as Body[])[0],
        expect.objectContaining({ id: expect.any(Number), title: 'Warehouse', city: 'Rotterdam' }),
      ]);
    });

    it('changes the customer number, which the list then filters by', async () => {
      const id = await createdId(newCustomer('C-OLD'));

      const response = await api().patch(id, { customer_number: 'C-NEW' });

      expect(response.status).toBe(200);
      expect(response.body.customer).toMatchObject({ id, customer_number: 'C-NEW' });
      expect(await shown(id)).toEqual(response.body.customer);
      const byNumber = (number: string) =>
        `&filter_groups[0][filters][0][key]=customer_number&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=${number}`;
      expect(await listed(byNumber('C-NEW'))).toEqual([response.body.customer]);
      expect(await listed(byNumber('C-OLD'))).toEqual([]);
      // The old number is free again: a sync with it makes a new customer.
      const sync = await request(t.server)
        .post('/customers/sync')
        .set(brand.headers)
        .send({ customers: [newCustomer('C-OLD')] });
      expect(sync.body.customers[0]).toMatchObject({ action: 'created' });
      expect(sync.body.customers[0].id).not.toBe(id);
    });

    it('answers a change that changes nothing with the customer as it was, updated_at kept', async () => {
      const id = await createdId(
        newCustomer('C-1', { email: 'a@b.example', ...addresses('replace', address('Home')) }),
      );
      const before = await shown(id);
      t.clock.advance(60_000);

      for (const body of [
        {},
        { customer_number: 'C-1', name: 'Customer C-1', email: 'a@b.example' },
        addresses('replace', address('Home')),
      ]) {
        const response = await api().patch(id, body);
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ customer: before });
      }
      expect(await shown(id)).toEqual(before);
    });

    describe('refusals write nothing', () => {
      it('refuses a new customer without name or currency, naming each field as the sync does', async () => {
        const response = await api().post({ customer_number: 'C-1', name: '   ' });

        expect(response.status).toBe(422);
        expect(problems(response.body)).toEqual([
          ['/name', 'validation_failed', 'name is required for a new customer'],
          ['/currency', 'validation_failed', 'currency is required for a new customer'],
        ]);
        const missingNumber = await api().post({ name: 'No number', currency: 'EUR' });
        expect(missingNumber.status).toBe(422);
        expect(problems(missingNumber.body)).toEqual([
          ['/customer_number', 'validation_failed', 'customer_number must be a string'],
        ]);
        expect(await listed()).toEqual([]);
      });

      it('refuses values of the wrong JSON type or out of range, naming each field', async () => {
        const response = await api().post({
          customer_number: 7,
          name: null,
          currency: 'EUR',
          active: 'yes',
          discount_percentage: '10',
          email: 12,
          customer_group: 'WHOLESALE',
          addresses: [address('Home')],
        });

        expect(response.status).toBe(422);
        expect(problems(response.body)).toEqual([
          ['/customer_number', 'validation_failed', 'customer_number must be a string'],
          [
            '/addresses_sync_mode',
            'validation_failed',
            'addresses_sync_mode is required with addresses and must be one of replace, append',
          ],
          [
            '/addresses_sync_key',
            'validation_failed',
            'addresses_sync_key is required with addresses and must be one of address_title, remote_erp_id',
          ],
          ['/name', 'validation_failed', 'name must be a string'],
          ['/discount_percentage', 'validation_failed', 'discount_percentage must be a number with at most 2 decimals'],
          ['/active', 'validation_failed', 'active must be a boolean value'],
          ['/email', 'validation_failed', 'email must be a string'],
          ['/customer_group', 'validation_failed', 'customer_group must be an object'],
        ]);

        const rules = await api().post(
          newCustomer('C-1', {
            currency: 'euro',
            discount_percentage: 100.5,
            ...addresses('replace', address('Home'), address('home')),
          }),
        );
        expect(rules.status).toBe(422);
        expect(problems(rules.body)).toEqual([
          ['/discount_percentage', 'validation_failed', 'discount_percentage must not be greater than 100'],
        ]);
        const core = await api().post(
          newCustomer('C-1', { currency: 'euro', ...addresses('replace', address('Home'), address('home')) }),
        );
        expect(problems(core.body)).toEqual([
          ['/currency', 'validation_failed', 'currency must be a 3-letter ISO 4217 code such as EUR'],
          ['/addresses/1', 'validation_failed', 'addresses[1] repeats the address_title "home" of an earlier address'],
        ]);
        expect(await listed()).toEqual([]);
      });

      it('refuses payment terms or a group that do not exist, and both spellings of the terms at once', async () => {
        const unknown = await api().post(
          newCustomer('C-1', {
            payment_terms: { payment_terms_code: 'NET99' },
            customer_group: { customer_group_id: 999_999 },
          }),
        );
        expect(unknown.status).toBe(422);
        expect(problems(unknown.body)).toEqual([
          ['/payment_terms', 'validation_failed', 'payment_terms names payment terms "NET99", which does not exist'],
          [
            '/customer_group',
            'validation_failed',
            'customer_group names customer group id 999999, which does not exist',
          ],
        ]);
        const both = await api().post(
          newCustomer('C-1', {
            payment_terms: { payment_terms_code: 'NET30' },
            payment_term: { payment_term_code: 'NET30' },
          }),
        );
        expect(both.status).toBe(422);
        expect(problems(both.body)).toEqual([
          [
            '/payment_term',
            'validation_failed',
            'payment_term cannot be sent together with payment_terms; send one of them',
          ],
        ]);
        expect(await listed()).toEqual([]);
      });

      it('refuses a change of the wrong type, a blank name or number, or unknown terms, and keeps the customer as it was', async () => {
        const id = await createdId(newCustomer('C-1'));
        const before = await shown(id, '?includes[]=addresses');
        t.clock.advance(60_000);

        const refusals: [Body, string[]][] = [
          [{ name: null }, ['/name']],
          [{ name: '  ' }, ['/name']],
          [{ customer_number: '' }, ['/customer_number']],
          [{ customer_number: '  ' }, ['/customer_number']],
          [{ active: 1, currency: 'EURO' }, ['/active']],
          [{ currency: 'eur' }, ['/currency']],
          [{ discount_percentage: -1 }, ['/discount_percentage']],
          [{ payment_terms: { payment_terms_code: 'NOPE' } }, ['/payment_terms']],
          [{ addresses: [address('Home')] }, ['/addresses_sync_mode', '/addresses_sync_key']],
          [
            { name: 'Valid', ...addresses('replace', { title: 'No street' }) },
            expect.arrayContaining(['/addresses/0/name']),
          ],
        ];
        for (const [body, pointers] of refusals) {
          const response = await api().patch(id, body);
          expect({ body, status: response.status }).toEqual({ body, status: 422 });
          expect(problems(response.body).map(([pointer]) => pointer)).toEqual(pointers);
        }
        expect(await shown(id, '?includes[]=addresses')).toEqual(before);
      });

      it('refuses a customer_number the brand already uses, on create and on change; another brand may use it', async () => {
        const first = await createdId(newCustomer('C-1'));
        const second = await createdId(newCustomer('C-2'));
        const secondBefore = await shown(second);

        const taken = await api().post(newCustomer('C-1', { name: 'Someone else' }));
        expect(taken.status).toBe(422);
        expect(problems(taken.body)).toEqual([
          ['/customer_number', 'duplicate', `customer_number C-1 is taken by customer ${first}`],
        ]);
        const renumbered = await api().patch(second, { customer_number: 'C-1', name: 'Would be renamed' });
        expect(renumbered.status).toBe(422);
        expect(problems(renumbered.body)).toEqual([
          ['/customer_number', 'duplicate', `customer_number C-1 is taken by customer ${first}`],
        ]);
        expect(await shown(second)).toEqual(secondBefore);
        expect((await listed()).map((c) => [c['id'], c['customer_number'], c['name']])).toEqual([
          [first, 'C-1', 'Customer C-1'],
          [second, 'C-2', 'Customer C-2'],
        ]);

        const other = await createIntegrator(t.storage, t.clock);
        expect((await as(other).post(newCustomer('C-1'))).status).toBe(201);
      });

      it("answers 404 for another brand's customer, on GET and on PATCH, exactly as for a missing one, and changes nothing", async () => {
        const id = await createdId(newCustomer('C-1'));
        const before = await shown(id);
        const other = await createIntegrator(t.storage, t.clock);

        const foreignGet = await as(other).get(id);
        const foreignPatch = await as(other).patch(id, { name: 'Hijacked' });
        const missingGet = await api().get(999_999_999);
        const missingPatch = await api().patch(999_999_999, { name: 'Ghost' });
        for (const response of [foreignGet, foreignPatch, missingGet, missingPatch]) {
          expect(response.status).toBe(404);
          expect(response.body.errors[0]).toMatchObject({ status: 404, code: 'not_found' });
        }
        expect(foreignGet.body.errors[0].detail).toBe(`customer ${id} was not found`);
        expect((await api().get('C-1')).status).toBe(404);
        expect(await shown(id)).toEqual(before);
      });

      it('refuses an unknown include naming the parameter', async () => {
        const id = await createdId(newCustomer('C-1'));
        const response = await api().get(id, '?includes[]=orders');
        expect(response.status).toBe(422);
        expect(response.body.errors[0]).toMatchObject({
          code: 'invalid_list_query',
          source: { parameter: 'includes[0]' },
        });
      });
    });

    it('needs customers:write to create or change and customers:read to read; refused writes change nothing', async () => {
      const id = await createdId(newCustomer('C-1'));
      const before = await shown(id);
      const reader = await withScopes(t.storage, t.clock, brand, ['customers:read']);
      const writer = await withScopes(t.storage, t.clock, brand, ['customers:write']);

      const refusals = [
        await as(reader).post(newCustomer('C-9')),
        await as(reader).patch(id, { name: 'Nope' }),
        await as(writer).get(id),
      ];
      expect(refusals.map((r) => [r.status, r.body.errors[0].code, r.body.errors[0].meta])).toEqual([
        [403, 'insufficient_scope', { missing_scopes: ['customers:write'] }],
        [403, 'insufficient_scope', { missing_scopes: ['customers:write'] }],
        [403, 'insufficient_scope', { missing_scopes: ['customers:read'] }],
      ]);
      expect((await as(reader).get(id)).body).toEqual({ customer: before });
      expect(await listed()).toEqual([before]);
      // The write scope alone is enough to write.
      expect((await as(writer).patch(id, { name: 'Written' })).status).toBe(200);
    });

    it('makes one customer of two parallel creates with the same number: one 201 and one 422, every time', async () => {
      const numbers = ['RACE-1', 'RACE-2', 'RACE-3', 'RACE-4', 'RACE-5'];

      const responses = await Promise.all(
        numbers.flatMap((number) => [
          api().post(newCustomer(number, { name: 'First' })),
          api().post(newCustomer(number, { name: 'Second' })),
        ]),
      );

      for (const [i, number] of numbers.entries()) {
        const pair = [responses[2 * i]!, responses[2 * i + 1]!];
        expect(pair.map((r) => r.status).sort()).toEqual([201, 422]);
        const created = pair.find((r) => r.status === 201)!.body.customer as Body;
        const refused = pair.find((r) => r.status === 422)!;
        expect(problems(refused.body)).toEqual([
          ['/customer_number', 'duplicate', `customer_number ${number} is taken by customer ${created['id']}`],
        ]);
        expect(await shown(created['id'] as number)).toEqual(created);
      }
      const stored = await listed();
      expect(stored.map((c) => c['customer_number']).sort()).toEqual(numbers);
    });

    it('documents the create body as the sync item without delete, name and currency required, and the Location of a create', async () => {
      const document = (await request(t.server).get('/openapi.json')).body;
      const schemas = document.components.schemas;
      const post = document.paths['/v10/customers'].post;
      expect(post.requestBody.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/CreateCustomerDto',
      });
      expect(schemas.CreateCustomerDto.required).toEqual(['customer_number', 'name', 'currency']);
      expect(Object.keys(schemas.CreateCustomerDto.properties).sort()).toEqual(
        Object.keys(schemas.CustomerSyncItemDto.properties)
          .filter((name) => name !== 'delete')
          .sort(),
      );
      expect(schemas.UpdateCustomerDto.required).toBeUndefined();
      expect(post.responses['201'].headers.Location).toMatchObject({ schema: { type: 'string' } });
    });

    describe('events', () => {
      /** The brand's customer events of one type, oldest first, as an integration polls for them. */
      async function eventsOfType(type: string): Promise<Event[]> {
        const response = await request(t.server)
          .get(
            `/v10/events?limit=100&filter_groups[0][filters][0][key]=type&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=${type}`,
          )
          .set(brand.headers);
        expect(response.status).toBe(200);
        return response.body.events as Event[];
      }

      const event = (type: string, object: Body, createdAt: string) => ({
        id: expect.stringMatching(/^evt_\d+$/),
        type,
        created_at: createdAt,
        data: { object },
      });

      it('announces a create as customer.created with the customer as GET shows it; a refused create announces nothing', async () => {
        const id = await createdId(newCustomer('C-1', { email: 'a@b.example' }));
        const afterCreate = await shown(id);
        expect((await api().post(newCustomer('C-1'))).status).toBe(422);
        expect((await api().post({ customer_number: 'C-2' })).status).toBe(422);

        expect(await eventsOfType('customer.created')).toEqual([event('customer.created', afterCreate, t.clock.now())]);
        expect(await eventsOfType('customer.updated')).toEqual([]);
      });

      it('announces each change as customer.updated with the customer as GET shows it then, and nothing for a change that changes nothing', async () => {
        const id = await createdId(newCustomer('C-1'));
        const createdAt = t.clock.now();
        t.clock.advance(60_000);
        expect((await api().patch(id, { name: 'Renamed', active: false })).status).toBe(200);
        const afterRename = await shown(id);
        const renamedAt = t.clock.now();
        t.clock.advance(60_000);
        expect((await api().patch(id, { customer_number: 'C-1B' })).status).toBe(200);
        const afterRenumber = await shown(id);
        const renumberedAt = t.clock.now();
        t.clock.advance(60_000);

        // Nothing changes: the same values, an empty body, a refused change.
        expect((await api().patch(id, { name: 'Renamed', active: false, customer_number: 'C-1B' })).status).toBe(200);
        expect((await api().patch(id, {})).status).toBe(200);
        expect((await api().patch(id, { currency: 'euro' })).status).toBe(422);

        expect(await eventsOfType('customer.updated')).toEqual([
          event('customer.updated', afterRename, renamedAt),
          event('customer.updated', afterRenumber, renumberedAt),
        ]);
        expect((await eventsOfType('customer.created')).map((e) => [e.data.object['id'], e.created_at])).toEqual([
          [id, createdAt],
        ]);
      });
    });
  });
}
