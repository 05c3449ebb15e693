import { Meta } from '../catalog/catalog.entities';

/**
 * Orders: what a customer bought on an order channel, priced when it was placed and holding
 * (reserving) its pieces until they are regulated out of stock or released. Amounts are minor
 * units of the order's currency; rates and discounts are basis points of a percent.
 */

/**
 * Whom an order sells to: a business (wholesale prices, excluding VAT) or a consumer (retail
 * prices, including VAT).
 */
export type OrderType = 'b2b' | 'b2c';
/** Every order type, for validation and documentation of the wire. */
export const ORDER_TYPES: readonly OrderType[] = ['b2b', 'b2c'];
/** Where an order is in its lifecycle (`orderLifecycle`). */
export type OrderStatus = 'draft' | 'approved' | 'cancelled' | 'archived';

/** Where orders come from (a webshop, an ERP, a marketplace): addressed by its public id. */
export interface OrderChannel {
  id: number;
  brandId: number;
  /** The id integrations put in `POST /v10/order-channels/{publicId}/orders`. */
  publicId: string;
  name: string;
  orderType: OrderType;
  /** Orders of this channel are approved as soon as they are created (and get their shipment). */
  autoApprove: boolean;
  /** Every order of this channel belongs to this drop (the order need not name one). */
  dropId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** A postal address as an order or shipment carries it (a copy, not a link to the customer's). */
export interface OrderAddress {
  name: string;
  att: string | null;
  address: string;
  zip: string;
  region: string;
  city: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** How the warehouse should send the goods (maps to its carrier codes). */
export interface ShippingCode {
  code: string;
  dropPointId: string | null;
}

/** The person at the customer responsible for an order. */
export interface ResponsiblePerson {
  email: string;
  firstName: string;
  lastName: string | null;
}

/** Pieces of a line reserved at one inventory location. */
export interface Reservation {
  locationId: number;
  quantity: number;
}

/**
 * One variant on an order: a copy of its catalog data, its price, the stock it reserves and how
 * many of its pieces were shipped, delivered, invoiced and regulated.
 */
export interface OrderLine {
  id: number;
  orderId: number;
  variantId: number;
  productId: number;
  /** Copies of the catalog at order time (the catalog may change; the order must not). */
  sku: string;
  ean: string | null;
  itemNumber: string;
  productName: string;
  attributes: Record<string, string>;
  countryOfOrigin: string | null;
  composition: string | null;
  hsTariffCode: string | null;
  /** False for `no_inventory` products: their pieces are never reserved or regulated. */
  tracksInventory: boolean;
  quantity: number;
  /** Price per piece before the discount (incl. VAT when the order's prices include VAT). */
  unitPrice: number;
  discountBasisPoints: number;
  /** quantity × unitPrice less the discount, rounded half up to the minor unit. */
  totalPrice: number;
  /** Where the line's pieces are held; the sum is what the line still reserves. */
  reservations: Reservation[];
  /** Pieces on shipments that are not cancelled (open or delivered). */
  shippedQuantity: number;
  /** Pieces the warehouse reported delivered. */
  deliveredQuantity: number;
  /** Pieces on invoices of this order (draft or booked). */
  invoicedQuantity: number;
  /** Pieces taken out of In stock (by mark-as-exported or by booking an invoice); never more than quantity. */
  regulatedQuantity: number;
}

/** A customer's order on an order channel, with its lines, addresses and totals. */
export interface Order {
  id: number;
  brandId: number;
  orderNumber: number;
  status: OrderStatus;
  orderType: OrderType;
  orderChannelId: number;
  customerId: number;
  customerNumber: string;
  dropId: number | null;
  currency: string;
  vatRateBasisPoints: number;
  /** B2C prices include VAT (the totals are then derived from the gross amount). */
  pricesIncludeVat: boolean;
  email: string | null;
  telephone: string | null;
  reference: string | null;
  notes: string | null;
  invoiceAddress: OrderAddress | null;
  deliveryAddress: OrderAddress | null;
  shippingCode: ShippingCode | null;
  /** Shipping charged for the order, in the same VAT basis as the lines; null when unset. */
  shippingCost: number | null;
  responsiblePerson: ResponsiblePerson | null;
  orderMeta: Meta;
  netTotal: number;
  vatTotal: number;
  total: number;
  approvedAt: string | null;
  cancelledAt: string | null;
  archivedAt: string | null;
  createdByUserId: number | null;
  createdAt: string;
  updatedAt: string;
  lines: OrderLine[];
}

/** Totals of a priced document. */
export interface DocumentTotals {
  netTotal: number;
  vatTotal: number;
  total: number;
}
