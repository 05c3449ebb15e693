import { hash } from 'node:crypto';
import { Response } from 'express';
import { pointerToPath } from '@brand/core';
import { Violation, httpErrors } from './http-errors';
import { OrderBody } from './order-body';
import { Line, ProductRow, VariantRow, customsValues } from './order-rules';

/**
 * The steps of the project's placeOrder that read no database, shared by the SQLite baseline
 * (synchronous, better-sqlite3) and the Postgres one (asynchronous, pg): each driver reads and
 * writes the rows in the same order and hands them to these.
 */

export interface ChannelRow {
  id: number;
  name: string;
  order_type: 'b2b' | 'b2c';
  auto_approve: number;
  drop_id: number | null;
}
export interface CustomerRow {
  id: number;
  customer_number: string;
  currency: string;
  discount_basis_points: number;
  active: number;
}
export interface AddressRow {
  name: string;
  address: string;
  address_2: string | null;
  zip: string;
  region: string | null;
  city: string;
  country: string;
}
export interface ReservedBalance {
  id: number;
  in_stock: number;
  reserved: number;
}

/** What the project settles for a brand that never saved settings (defaultBrandSettings). */
export const DEFAULT_SETTINGS = { requires_drop: 0, default_vat_rate_basis_points: 2500 };

const money = (minor: number): number => minor / 100;

/** The violations found so far and how to report one (the project's wording: the field's path, then the problem). */
export function violationList(): { violations: Violation[]; report: (pointer: string, problem: string) => void } {
  const violations: Violation[] = [];
  return {
    violations,
    report: (pointer, problem) => violations.push({ pointer, detail: `${pointerToPath(pointer)} ${problem}` }),
  };
}

/** The channel must exist and not approve on creation (that path, which ships too, is left out of the baseline). */
export function checkChannel(channel: ChannelRow | undefined, publicId: string): ChannelRow {
  if (!channel) throw httpErrors.notFound('order channel', publicId);
  if (channel.auto_approve === 1) throw httpErrors.notImplemented('channels that approve orders on creation');
  return channel;
}

/** The customer named must exist and be active; a brand that requires a drop needs one on the channel. */
export function checkCustomer(
  body: OrderBody,
  customer: CustomerRow | undefined,
  channel: ChannelRow,
  settings: typeof DEFAULT_SETTINGS,
  report: (pointer: string, problem: string) => void,
): void {
  const byId = body.customerId !== undefined;
  const customerPointer = byId ? '/order/customer_id' : '/order/customer_number';
  if (!customer)
    report(
      customerPointer,
      byId
        ? `names customer id ${body.customerId}, which does not exist`
        : `names customer ${JSON.stringify(body.customerNumber)}, which does not exist`,
    );
  else if (customer.active !== 1)
    report(
      customerPointer,
      `names customer ${JSON.stringify(customer.customer_number)}, which is inactive and cannot order`,
    );
  if (channel.drop_id === null && settings.requires_drop === 1)
    report('/order/drop_id', 'is required: the brand requires a drop on every order (send drop_id or drop_code)');
}

/** The request's lines with the variants and products they name; an unknown SKU is reported. */
export function linesOf(
  body: OrderBody,
  variants: Map<string, VariantRow>,
  products: Map<number, ProductRow>,
  report: (pointer: string, problem: string) => void,
): Line[] {
  const lines: Line[] = [];
  body.lines.forEach(({ sku, quantity }, index) => {
    const variant = variants.get(sku);
    if (variant)
      lines.push({
        index,
        id: 0,
        quantity,
        variant,
        product: products.get(variant.product_id)!,
        unitPrice: 0,
        discountBasisPoints: 0,
        totalPrice: 0,
        reservations: [],
      });
    else report(`/order/lines/${index}/sku`, `${JSON.stringify(sku)} is not a variant of this brand`);
  });
  return lines;
}

/** Every reservation of the order's lines, with its variant, in line order. */
export const reservationsOf = (lines: Line[]) =>
  lines.flatMap((l) => l.reservations.map((r) => ({ variant: l.variant, ...r })));

/**
 * The project's inventory.changed objects: one per balance the reservations moved (in the order
 * first touched), with the row of GET /v10/inventory-available as the order left it.
 */
export class MovedBalances {
  private readonly moved = new Map<
    string,
    { variant: VariantRow; locationId: number; reserved: number; row: ReservedBalance }
  >();

  add(variant: VariantRow, locationId: number, quantity: number, row: ReservedBalance): void {
    const key = `${variant.id}:${locationId}`;
    const reserved = (this.moved.get(key)?.reserved ?? 0) + quantity;
    this.moved.set(key, { variant, locationId, reserved, row });
  }

  stockObjects(now: string) {
    return [...this.moved.values()]
      .filter((m) => m.reserved !== 0)
      .map(({ variant, locationId, row }) => ({
        id: Number(row.id),
        variantId: variant.id,
        sku: variant.sku,
        ean: variant.ean,
        locationId,
        inStock: Number(row.in_stock),
        available: Number(row.in_stock) - Number(row.reserved),
        updatedAt: now,
      }));
  }
}

/** The order's copy of the customer's first address, as invoice and delivery address. */
export function addressOf(first: AddressRow | undefined) {
  return first
    ? {
        name: first.name,
        att: null,
        address: first.address_2 ? `${first.address}, ${first.address_2}` : first.address,
        zip: first.zip,
        region: first.region ?? '',
        city: first.city,
        country: first.country,
      }
    : null;
}

/** What an order needs once its rows are read, its ids drawn and its number taken. */
export interface PlacedOrder {
  orderId: number;
  orderNumber: number;
  brandId: number;
  userId: number;
  channel: ChannelRow;
  customer: CustomerRow;
  currency: string | null;
  vatRate: number;
  pricesIncludeVat: boolean;
  body: OrderBody;
  address: ReturnType<typeof addressOf>;
  totals: { netTotal: number; vatTotal: number; total: number };
  lines: Line[];
  now: string;
}

/** The order entity as the core saves it: order.created's object. */
export function orderEntityOf(o: PlacedOrder) {
  return {
    id: o.orderId,
    brandId: o.brandId,
    orderNumber: o.orderNumber,
    status: 'draft',
    orderType: o.channel.order_type,
    orderChannelId: o.channel.id,
    customerId: o.customer.id,
    customerNumber: o.customer.customer_number,
    dropId: o.channel.drop_id,
    currency: o.currency,
    vatRateBasisPoints: o.vatRate,
    pricesIncludeVat: o.pricesIncludeVat,
    email: o.body.email,
    telephone: o.body.telephone,
    reference: o.body.reference,
    notes: o.body.notes,
    invoiceAddress: o.address,
    deliveryAddress: o.address,
    shippingCode: null,
    shippingCost: null,
    responsiblePerson: null,
    orderMeta: {},
    ...o.totals,
    approvedAt: null,
    cancelledAt: null,
    archivedAt: null,
    createdByUserId: o.userId,
    createdAt: o.now,
    updatedAt: o.now,
    lines: o.lines.map((l) => {
      const [countryOfOrigin, composition, hsTariffCode] = customsValues(l);
      return {
        id: l.id,
        orderId: o.orderId,
        variantId: l.variant.id,
        productId: l.product.id,
        sku: l.variant.sku,
        ean: l.variant.ean,
        itemNumber: l.product.item_number,
        productName: l.product.name,
        attributes: JSON.parse(l.variant.attributes) as unknown,
        countryOfOrigin,
        composition,
        hsTariffCode,
        tracksInventory: l.product.no_inventory !== 1,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        discountBasisPoints: l.discountBasisPoints,
        totalPrice: l.totalPrice,
        reservations: l.reservations,
        shippedQuantity: 0,
        deliveredQuantity: 0,
        invoicedQuantity: 0,
        regulatedQuantity: 0,
      };
    }),
  };
}

/** The project's presentOrder with its lines and no export marks, as the create answers it. */
export function presentPlacedOrder(o: PlacedOrder) {
  return {
    order: {
      id: o.orderId,
      order_number: o.orderNumber,
      status: 'draft',
      order_type: o.channel.order_type,
      order_channel_id: o.channel.id,
      customer_id: o.customer.id,
      customer_number: o.customer.customer_number,
      drop_id: o.channel.drop_id,
      currency: o.currency,
      vat_rate: o.vatRate / 100,
      prices_include_vat: o.pricesIncludeVat,
      email: o.body.email,
      telephone: o.body.telephone,
      reference: o.body.reference,
      notes: o.body.notes,
      invoice_address: o.address,
      delivery_address: o.address,
      shipping_code: null,
      shipping_cost: null,
      responsible_person: null,
      order_meta: {},
      net_total: money(o.totals.netTotal),
      vat_total: money(o.totals.vatTotal),
      total: money(o.totals.total),
      approved_at: null,
      cancelled_at: null,
      archived_at: null,
      created_at: o.now,
      updated_at: o.now,
      exports: [],
      lines: o.lines.map((l) => ({
        id: l.id,
        variant_id: l.variant.id,
        product_id: l.product.id,
        sku: l.variant.sku,
        ean: l.variant.ean,
        item_number: l.product.item_number,
        product_name: l.product.name,
        attributes: JSON.parse(l.variant.attributes) as Record<string, string>,
        quantity: l.quantity,
        reserved_quantity: l.reservations.reduce((sum, r) => sum + r.quantity, 0),
        shipped_quantity: 0,
        delivered_quantity: 0,
        invoiced_quantity: 0,
        regulated_quantity: 0,
        unit_price: money(l.unitPrice),
        discount_percentage: l.discountBasisPoints / 100,
        total_price: money(l.totalPrice),
      })),
      // The create answers the order as GET shows it: with the timeline entry it wrote.
      timeline: [
        {
          kind: 'created',
          note: `placed on channel ${o.channel.name}`,
          system_id: null,
          user_id: o.userId,
          created_at: o.now,
        },
      ],
    },
  };
}

/** The project's pathPublicId: what could never have been generated names no channel. */
export function channelPublicId(raw: unknown): string {
  const publicId = String(raw);
  if (!/^[\x21-\x7e]{1,128}$/.test(publicId)) throw httpErrors.notFound('order channel', publicId);
  return publicId;
}

/** 201 with the answer; the project's answer carries a strong ETag of its bytes (DESIGN §14): the same hash here. */
export function sendCreated(res: Response, answer: unknown): void {
  const json = JSON.stringify(answer);
  res.setHeader('ETag', `"${hash('sha256', json, 'base64url').slice(0, 22)}"`);
  res.status(201).type('application/json').send(json);
}
