import { WebhookEndpoint } from '../webhooks/webhook.entities';
import { aMovement, catalogBuilders } from './catalog-contract-builders';
import { contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The storage itself refuses a row of one brand that points at a row of another brand (DESIGN §9:
 * composite foreign keys in SQL, the same check in memory), whichever way the row got there: the
 * use cases look references up within the brand first, so these go straight to the repositories,
 * as a use case with a bug would. Each refusal leaves nothing written; the same row pointing
 * within its own brand is stored.
 * @example
 * describeCrossBrandReferencesContract('in-memory', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeCrossBrandReferencesContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aUser, anApp, aToken, aCustomerGroup, aCustomer, aSupplier, aLocation } = contractBuilders(uow, {
      at: T0,
    });
    const { aProduct } = catalogBuilders(uow);

    const twoBrands = async () => ({ own: await aBrand('Own'), other: await aBrand('Other') });

    it("refuses a customer in another brand's customer group", async () => {
      const { own, other } = await twoBrands();
      const foreignGroup = await aCustomerGroup(other.id, 'VIP');
      const ownGroup = await aCustomerGroup(own.id, 'VIP');

      await expect(
        aCustomer(own.id, { customerNumber: 'C-FOREIGN', customerGroupId: foreignGroup.id }),
      ).rejects.toMatchObject({
        code: 'has_dependents',
      });
      expect(await uow().read((r) => r.customers.findByNumbers(own.id, ['C-FOREIGN']))).toEqual([]);

      const accepted = await aCustomer(own.id, { customerGroupId: ownGroup.id });
      expect((await uow().read((r) => r.customers.findById(own.id, accepted.id)))?.customerGroupId).toBe(ownGroup.id);
    });

    it("refuses an access token of another brand's user or app", async () => {
      const { own, other } = await twoBrands();
      const ownUser = await aUser(own.id);
      const ownApp = await anApp(own.id);
      const foreignUser = await aUser(other.id);
      const foreignApp = await anApp(other.id);

      await expect(aToken({ ...foreignUser, brandId: own.id }, ownApp)).rejects.toMatchObject({
        code: 'has_dependents',
      });
      await expect(aToken(ownUser, { ...foreignApp, brandId: own.id })).rejects.toMatchObject({
        code: 'has_dependents',
      });
      expect(await uow().read((r) => r.accessTokens.listForUser(own.id, foreignUser.id))).toEqual([]);
      expect(await uow().read((r) => r.accessTokens.listForUser(own.id, ownUser.id))).toEqual([]);

      const token = await aToken(ownUser, ownApp);
      expect(await uow().read((r) => r.accessTokens.findById(own.id, token.id))).toStrictEqual(token);
    });

    it("refuses a product linked to another brand's supplier", async () => {
      const { own, other } = await twoBrands();
      const foreign = await aSupplier(other.id);
      const supplier = await aSupplier(own.id);
      const link = {
        primary: true,
        leadTimeType: 'days' as const,
        leadTimeFrom: null,
        leadTimeTo: null,
        costPriceSetId: null,
      };

      await expect(
        aProduct(own.id, { itemNumber: 'FOREIGN', suppliers: [{ ...link, supplierId: foreign.id }] }),
      ).rejects.toMatchObject({ code: 'has_dependents' });
      expect(await uow().read((r) => r.products.findByItemNumbers(own.id, ['FOREIGN']))).toEqual([]);

      const product = await aProduct(own.id, { itemNumber: 'OWN', suppliers: [{ ...link, supplierId: supplier.id }] });
      expect(product.suppliers.map((s) => s.supplierId)).toEqual([supplier.id]);
    });

    it("refuses stock moved at another brand's location", async () => {
      const { own, other } = await twoBrands();
      const foreign = await aLocation(other.id);
      const location = await aLocation(own.id);
      const product = await aProduct(own.id);
      const variantId = product.variants[0]!.variant.id;

      await expect(
        uow().run((tx) => tx.stock.apply(own.id, [aMovement(own.id, variantId, foreign.id, 5)], T0)),
      ).rejects.toMatchObject({ code: 'has_dependents' });
      expect(await uow().read((r) => r.stock.balances(own.id, [variantId]))).toEqual([]);

      await uow().run((tx) => tx.stock.apply(own.id, [aMovement(own.id, variantId, location.id, 5)], T0));
      expect((await uow().read((r) => r.stock.balances(own.id, [variantId]))).map((b) => b.inStock)).toEqual([5]);
    });

    it("refuses a webhook delivery to another brand's endpoint", async () => {
      const { own, other } = await twoBrands();
      const anEndpoint = async (brandId: number): Promise<WebhookEndpoint> =>
        uow().run(async (tx) => {
          const [id] = await tx.ids.next('webhook_endpoints');
          const endpoint: WebhookEndpoint = {
            id: id!,
            brandId,
            url: 'https://hooks.example/brand',
            events: ['*'],
            description: null,
            enabled: true,
            secret: 'whsec_c2VjcmV0',
            previousSecret: null,
            previousSecretExpiresAt: null,
            failingSince: null,
            createdAt: T0,
            updatedAt: T0,
          };
          await tx.webhookEndpoints.save(endpoint);
          return endpoint;
        });
      const foreign = await anEndpoint(other.id);
      const endpoint = await anEndpoint(own.id);
      const deliveryTo = async (endpointId: number) => {
        const [id] = await uow().run((tx) => tx.ids.next('webhook_deliveries'));
        return {
          id: id!,
          brandId: own.id,
          endpointId,
          eventId: 1,
          eventType: 'order.created',
          status: 'pending' as const,
          attempts: 0,
          lastStatusCode: null,
          lastError: null,
          nextAttemptAt: T0,
          createdAt: T0,
          updatedAt: T0,
        };
      };

      const refused = await deliveryTo(foreign.id);
      await expect(uow().run((tx) => tx.webhookDeliveries.insert([refused]))).rejects.toMatchObject({
        code: 'has_dependents',
      });
      expect(await uow().read((r) => r.webhookDeliveries.findByIds(own.id, [refused.id]))).toEqual([]);

      const accepted = await deliveryTo(endpoint.id);
      await uow().run((tx) => tx.webhookDeliveries.insert([accepted]));
      expect(
        (await uow().read((r) => r.webhookDeliveries.findByIds(own.id, [accepted.id]))).map((d) => d.endpointId),
      ).toEqual([endpoint.id]);
    });
  });
}
