import {
  AlertStatus,
  ReturnStatus,
  approveReturn,
  createReturn,
  createReturnPortal,
  finalizePortalReturn,
  getReturn,
  receiveThirdPartyReturn,
  returnLifecycle,
  upsertPortalReturn,
  DeliveryNoteStatus,
  ProductionOrderStatus,
  alertLifecycle,
  approveProductionOrder,
  closeProductionOrder,
  createAdHocReturn,
  createDeliveryNote,
  createProductionOrder,
  creditNoteFromAlert,
  deliveryNoteLifecycle,
  getProductionOrder,
  listAlerts,
  productionOrderLifecycle,
  receiveDeliveryNote,
  syncSuppliers,
  updateBrandSettings,
} from '../src';
import { walkLifecycle } from './lifecycle-walk.support';
import { World, aWorld, listOf } from './orders-fixtures';
import { product, setUpShop, variant } from './orders-shop.support';
import { aDeliveredOrder } from './returns.support';

type Shop = Awaited<ReturnType<typeof setUpShop>>;

/** A shop with TEE-S, a supplier and a draft production order of 10 × TEE-S. */
async function aDraftProductionOrder() {
  const shop = await setUpShop();
  await shop.products([product('TEE', { variants: [variant('TEE-S', 0)] })]);
  await syncSuppliers(shop.deps, {
    brandId: shop.brand.id,
    suppliers: [{ supplierNumber: 'SUP-1', name: 'Porto Mills', currency: 'EUR' }],
  });
  const order = await createProductionOrder(shop.deps, {
    ...by(shop),
    productionOrder: { supplierNumber: 'SUP-1', lines: [{ sku: 'TEE-S', quantity: 10 }] },
  });
  return { shop, productionOrderId: order.id };
}

const by = (shop: Shop) => ({ brandId: shop.brand.id, userId: shop.user.id });

interface Produced {
  shop: Shop;
  productionOrderId: number;
}
const approve = ({ shop, productionOrderId }: Produced) =>
  approveProductionOrder(shop.deps, { ...by(shop), productionOrderId });
const close = ({ shop, productionOrderId }: Produced) =>
  closeProductionOrder(shop.deps, { ...by(shop), productionOrderId });
const productionOrderOf = async ({ shop, productionOrderId }: Produced) =>
  (await getProductionOrder(shop.deps, { brandId: shop.brand.id, productionOrderId })).productionOrder;

describe('the production order lifecycle, walked through its use cases', () => {
  walkLifecycle<ProductionOrderStatus, Produced>({
    machine: productionOrderLifecycle,
    async arrange(state) {
      const produced = await aDraftProductionOrder();
      if (state === 'open' || state === 'closed') await approve(produced);
      if (state === 'closed') await close(produced);
      return produced;
    },
    movers: { open: approve, closed: close },
    statusOf: async (produced) => (await productionOrderOf(produced)).status,
  });
});

describe('the delivery note lifecycle, walked through its use cases', () => {
  interface Announced extends Produced {
    deliveryNoteNumber: number;
  }
  const receive = ({ shop, deliveryNoteNumber }: Announced) =>
    receiveDeliveryNote(shop.deps, {
      ...by(shop),
      receipt: { deliveryNoteNumber, lines: [{ sku: 'TEE-S', receivedQuantity: 3 }] },
    });

  walkLifecycle<DeliveryNoteStatus, Announced>({
    machine: deliveryNoteLifecycle,
    async arrange(state) {
      const produced = await aDraftProductionOrder();
      await approve(produced);
      const { deliveryNote: note } = await createDeliveryNote(produced.shop.deps, {
        ...by(produced.shop),
        productionOrderId: produced.productionOrderId,
        deliveryNote: { lines: [{ sku: 'TEE-S', quantity: 6 }] },
      });
      const announced = { ...produced, deliveryNoteNumber: note.deliveryNoteNumber };
      if (state === 'received') await receive(announced);
      return announced;
    },
    movers: { received: receive },
    statusOf: async (announced) => {
      const { related } = await getProductionOrder(announced.shop.deps, {
        brandId: announced.shop.brand.id,
        productionOrderId: announced.productionOrderId,
      });
      return related.deliveryNotes
        .get(announced.productionOrderId)!
        .find((note) => note.deliveryNoteNumber === announced.deliveryNoteNumber)!.status;
    },
  });
});

describe('the alert lifecycle, walked through its use cases', () => {
  interface Alerted {
    world: World;
    alertId: number;
  }
  const resolve = ({ world, alertId }: Alerted) =>
    creditNoteFromAlert(world.deps, { brandId: world.brand.id, userId: 7, alertId });

  walkLifecycle<AlertStatus, Alerted>({
    machine: alertLifecycle,
    async arrange(state) {
      // An ad hoc return without an RMA, in the mode that raises an alert instead of crediting.
      const world = await aWorld();
      await updateBrandSettings(world.deps, {
        brandId: world.brand.id,
        changes: { adHocReturnMode: 'alert_if_no_rma' },
      });
      const { shipment } = await aDeliveredOrder(world);
      const { alert } = await createAdHocReturn(world.deps, {
        brandId: world.brand.id,
        userId: 9,
        shipmentNumber: shipment.shipmentNumber,
        lines: [{ sku: 'TEE-M', quantity: 1, claimType: 'return', returnToInventory: true }],
      });
      const alerted = { world, alertId: alert!.id };
      if (state === 'resolved') await resolve(alerted);
      return alerted;
    },
    movers: { resolved: resolve },
    statusOf: async ({ world, alertId }) =>
      (await listAlerts(world.deps, listOf(world))).page.items.find((a) => a.id === alertId)!.status,
  });
});

describe('the return lifecycle, walked through its use cases', () => {
  interface Returned {
    shop: Shop;
    portalPublicId: string;
    returnId: number;
    rma: string;
  }
  const approve = ({ shop, returnId }: Returned) => approveReturn(shop.deps, { ...by(shop), returnId });
  const receive = ({ shop, rma }: Returned) =>
    receiveThirdPartyReturn(shop.deps, { ...by(shop), rma, lines: [{ sku: 'TEE-M', receivedQuantity: 1 }] });
  // One TEE-M at 49.95 incl. VAT: the draft credit note the receipt issued is refunded in full.
  const credit = ({ shop, portalPublicId, rma }: Returned) =>
    finalizePortalReturn(shop.deps, {
      ...by(shop),
      appInternalCode: null,
      publicId: portalPublicId,
      rma,
      refundTotal: 4995,
      exchangeTotal: 0,
    });

  walkLifecycle<ReturnStatus, Returned>(
    {
      machine: returnLifecycle,
      async arrange(state) {
        // A B2C order of 2 × TEE-M at 49.95 and a custom portal. Back-office RMAs start open;
        // portal returns start approved, and only they go on to credited (finalize).
        const shop = await setUpShop();
        await shop.products([product('TEE', { variants: [variant('TEE-M')] })]);
        await shop.customers([{ customerNumber: 'C-1', name: 'Anna', currency: 'EUR' }]);
        const channel = await shop.channel('b2c', { autoApprove: true });
        const { order } = await shop.place(channel, {
          customerNumber: 'C-1',
          email: 'anna@example.com',
          lines: [{ sku: 'TEE-M', quantity: 2 }],
        });
        const portal = await createReturnPortal(
          { uow: shop.uow, clock: shop.clock, hasher: shop.hasher },
          { brandId: shop.brand.id, name: 'Returns', type: 'custom' },
        );
        if (state === 'open') {
          const ret = await createReturn(shop.deps, {
            ...by(shop),
            orderNumber: order.orderNumber,
            lines: [{ sku: 'TEE-M', quantity: 1, claimType: 'return' }],
          });
          return { shop, portalPublicId: portal.publicId, returnId: ret.id, rma: ret.rma };
        }
        const { ret } = await upsertPortalReturn(shop.deps, {
          ...by(shop),
          appInternalCode: null,
          publicId: portal.publicId,
          email: 'anna@example.com',
          orderNumber: order.orderNumber,
          ret: { rma: 'RMA-0042', lines: [{ sku: 'TEE-M', quantity: 1, claimType: 'return', unitPriceInclVat: 4995 }] },
        });
        const returned = { shop, portalPublicId: portal.publicId, returnId: ret.id, rma: ret.rma };
        if (state === 'received' || state === 'credited') await receive(returned);
        if (state === 'credited') await credit(returned);
        return returned;
      },
      movers: { approved: approve, received: receive, credited: credit },
      statusOf: async ({ shop, returnId }) =>
        (await getReturn(shop.deps, { brandId: shop.brand.id, returnId })).ret.status,
    },
    {
      // Finalizing again once credited books nothing and answers as before (the spec's contract).
      idempotent: ['credited'],
      // Finalize refuses a return it cannot credit at its /rma field (422 validation_failed), as
      // the portal contract words it; the other moves answer invalid_state_transition.
      refusals: ['invalid_state_transition', 'validation_failed'],
    },
  );
});
