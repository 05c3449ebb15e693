import { Meta } from '../catalog/catalog.entities';
import { SaleableVariant } from '../catalog/catalog.ports';
import { VariantLineInput, resolveVariantLines } from '../orders/variant-lines';
import { Clock } from '../shared/clock.ports';
import { isCurrencyCode } from '../shared/codes';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { isCalendarDate } from './find-production-order';
import { ProductionOrder, ProductionOrderLine } from './production.entities';

/** `production_order` of `POST /v10/production-orders`, of the right JSON types; amounts in minor units. */
export interface CreateProductionOrderInput {
  supplierNumber: string;
  /** Default: the supplier's currency. */
  currency?: string;
  /** YYYY-MM-DD. */
  expectedDelivery?: string | null;
  notes?: string | null;
  productionOrderMeta?: Meta;
  salesOrderIds?: number[];
  lines: Array<VariantLineInput & { unitCost?: number | null }>;
}

/** Violations point into the flat back-office body (DESIGN §6): `/supplier_number`, `/lines/0/sku`. */
const POINTER = '';

/** Customs fields a line copies from the variant's meta, else the product's (as order lines do). */
function customsValue(found: SaleableVariant, key: string): string | null {
  for (const meta of [found.variant.meta, found.product.meta]) {
    const value = meta[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

type CreateProductionOrderRepositories = Pick<
  Repositories,
  'documentNumbers' | 'ids' | 'orders' | 'productionOrders' | 'products' | 'suppliers' | 'timeline'
>;

/**
 * Creates a draft production order with an active supplier of the brand: lines name the brand's
 * variants by SKU or EAN (one line per variant), sales orders must be the brand's. Anything wrong
 * refuses the whole order, one violation per problem, and nothing is written (the number is drawn last).
 */
export async function createProductionOrder(
  deps: { uow: UnitOfWork<CreateProductionOrderRepositories>; clock: Clock },
  input: { brandId: number; userId: number | null; productionOrder: CreateProductionOrderInput },
): Promise<ProductionOrder> {
  const { brandId, userId, productionOrder: body } = input;
  return deps.uow.run(async (tx) => {
    const violations = new ViolationList();
    const [supplier] = await tx.suppliers.findByNumbers(brandId, [body.supplierNumber]);
    if (!supplier)
      violations.add(
        `${POINTER}/supplier_number`,
        `${JSON.stringify(body.supplierNumber)} is not a supplier of this brand`,
      );
    else if (!supplier.active)
      violations.add(`${POINTER}/supplier_number`, `supplier ${supplier.supplierNumber} is inactive`);
    if (body.currency !== undefined && !isCurrencyCode(body.currency))
      violations.add(`${POINTER}/currency`, 'must be a 3-letter ISO 4217 code such as EUR');
    if (body.expectedDelivery != null && !isCalendarDate(body.expectedDelivery))
      violations.add(`${POINTER}/expected_delivery`, 'must be a date written YYYY-MM-DD');

    const salesOrderIds = [...new Set(body.salesOrderIds ?? [])];
    if (salesOrderIds.length) {
      const found = new Set((await tx.orders.findByIds(brandId, salesOrderIds)).map((o) => o.id));
      (body.salesOrderIds ?? []).forEach((id, i) => {
        if (!found.has(id))
          violations.add(`${POINTER}/sales_order_ids/${i}`, `names order ${id}, which is not an order of this brand`);
      });
    }

    const resolved = await resolveVariantLines(
      body.lines,
      `${POINTER}/lines`,
      {
        bySkus: (skus) => tx.products.findSaleableVariants(brandId, { skus }),
        byEans: (eans) => tx.products.findSaleableVariants(brandId, { eans }),
        skuOf: (found: SaleableVariant) => found.variant.sku,
        eanOf: (found: SaleableVariant) => found.variant.ean,
        variantIdOf: (found: SaleableVariant) => found.variant.id,
        missing: 'is not a variant of this brand',
      },
      violations,
    );
    // Delivery notes and receipts find a production line by its variant, so each variant has one line.
    const firstLineOf = new Map<number, number>();
    for (const r of resolved) {
      const first = firstLineOf.get(r.variantId);
      if (first !== undefined)
        violations.add(r.keyPointer, `SKU ${r.sku} is already on line ${first}; put its pieces on one line`);
      else firstLineOf.set(r.variantId, r.index);
    }
    body.lines.forEach((line, i) => {
      if (line.unitCost != null && (!Number.isSafeInteger(line.unitCost) || line.unitCost < 0)) {
        violations.add(`${POINTER}/lines/${i}/unit_cost`, 'must be an amount of 0 or more with at most 2 decimals');
      }
    });
    violations.throwIfAny();

    const now = deps.clock.now();
    const [id] = await tx.ids.next('production_orders');
    const lineIds = await tx.ids.next('production_order_lines', resolved.length);
    const lines = resolved.map(
      (r, i): ProductionOrderLine => ({
        id: lineIds[i]!,
        productionOrderId: id!,
        variantId: r.variantId,
        productId: r.match.product.id,
        sku: r.match.variant.sku,
        ean: r.match.variant.ean,
        itemNumber: r.match.product.itemNumber,
        productName: r.match.product.name,
        attributes: r.match.variant.attributes,
        countryOfOrigin: customsValue(r.match, 'country_of_origin'),
        composition: customsValue(r.match, 'composition'),
        hsTariffCode: customsValue(r.match, 'hs_tariff_code'),
        quantity: r.quantity,
        unitCost: body.lines[r.index]!.unitCost ?? null,
        expectedQuantity: 0,
        receivedQuantity: 0,
      }),
    );
    const order: ProductionOrder = {
      id: id!,
      brandId,
      productionOrderNumber: await tx.documentNumbers.next(brandId, 'production_order'),
      status: 'draft',
      supplierId: supplier!.id,
      supplierNumber: supplier!.supplierNumber,
      currency: body.currency ?? supplier!.currency,
      expectedDelivery: body.expectedDelivery ?? null,
      notes: body.notes ?? null,
      productionOrderMeta: body.productionOrderMeta ?? {},
      salesOrderIds,
      approvedAt: null,
      closedAt: null,
      createdByUserId: userId,
      createdAt: now,
      updatedAt: now,
      lines,
    };
    await tx.productionOrders.save(order);
    await tx.timeline.append([
      {
        brandId,
        documentType: 'production_order',
        documentId: order.id,
        kind: 'created',
        note: null,
        systemId: null,
        userId,
        createdAt: now,
      },
    ]);
    return order;
  });
}
