import { testDialects } from '@brand/persistence-kysely/testing';
import { getOk } from './support/orders';
import { EMAIL, PortalShop, line, seedPortalShop, upsert } from './support/return-portals';
import { useTestApp } from './support/test-app';

for (const dialect of testDialects()) {
  describe(`external return portals: concurrent upserts [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: PortalShop;

    beforeAll(async () => {
      shop = await seedPortalShop(t);
    });

    it('makes exactly one return of 20 concurrent identical upserts of a new rma: one 201, nineteen 200 with the same return', async () => {
      const body = {
        email: EMAIL,
        order_number: shop.order.order_number,
        return: { rma: 'RACE-2026-1', notes: 'raced', lines: [line('TEE-S', { quantity: 2 }), line('CAP-ONE')] },
      };
      const responses = await Promise.all(Array.from({ length: 20 }, () => upsert(t, shop.brand, shop.portal, body)));

      expect(responses.map((r) => r.status).sort((a, b) => a - b)).toEqual([
        ...Array.from({ length: 19 }, () => 200),
        201,
      ]);
      const created = responses.find((r) => r.status === 201)!.body;
      expect(created.created).toBe(true);
      for (const response of responses.filter((r) => r.status === 200))
        expect(response.body).toEqual({ created: false, return: created.return });

      const listed = (await getOk(t, shop.brand, '/v10/returns?limit=100'))['returns'] as Array<{
        id: number;
        rma: string;
        lines: unknown[];
      }>;
      expect(listed.filter((r) => r.rma === 'RACE-2026-1')).toEqual([
        expect.objectContaining({ id: created.return.id, lines: [expect.anything(), expect.anything()] }),
      ]);
      const detail = (await getOk(t, shop.brand, `/v10/returns/${created.return.id}`))['return'] as {
        timeline: Array<{ kind: string }>;
      };
      expect(detail.timeline.map((e) => e.kind)).toEqual(['created']);
    });
  });
}
