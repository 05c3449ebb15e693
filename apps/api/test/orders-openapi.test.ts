import request from 'supertest';
import { AccountingEntry, CreditNote, Invoice, Order, Shipment, defaultBrandSettings } from '@brand/core';
import { oneTestDialect } from '@brand/persistence-kysely';
import { presentAccountingEntryDetail } from '../src/presenters/accounting-entry.presenter';
import { presentCreditNoteDetail } from '../src/presenters/credit-note.presenter';
import { presentExportMarks } from '../src/presenters/export-mark.presenter';
import { presentInvoiceDetail } from '../src/presenters/invoice.presenter';
import { presentFinancialLine } from '../src/presenters/invoice-line.presenter';
import { presentOrderChannel } from '../src/presenters/order-channel.presenter';
import { presentOrderAddress, presentOrderDetail, presentOrderLine } from '../src/presenters/order.presenter';
import { presentSettings } from '../src/presenters/settings.presenter';
import { presentShipmentDetail, presentShipmentLine } from '../src/presenters/shipment.presenter';
import { presentTimeline } from '../src/presenters/timeline.presenter';
import { useTestApp } from './support/test-app';

interface Operation {
  security: Record<string, string[]>[];
  parameters: { name: string }[];
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
  responses: Record<string, { content?: { 'application/json': { schema: Record<string, unknown> } } }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
}

const ROUTES: [method: string, path: string, scope: string, status: string][] = [
  ['post', '/v10/order-channels', 'orders:write', '201'],
  ['get', '/v10/order-channels', 'orders:read', '200'],
  ['post', '/v10/order-channels/{publicId}/orders', 'orders:write', '201'],
  ['get', '/v10/orders', 'orders:read', '200'],
  ['get', '/v10/orders/{id}', 'orders:read', '200'],
  ['post', '/v10/orders/{id}/approve', 'orders:write', '200'],
  ['post', '/v10/orders/{id}/cancel', 'orders:write', '200'],
  ['post', '/v10/orders/{id}/shipments', 'orders:write', '201'],
  ['get', '/v10/shipments', 'fulfilment:read', '200'],
  ['get', '/v10/shipments/{id}', 'fulfilment:read', '200'],
  ['get', '/v10/settings', 'settings:read', '200'],
  ['patch', '/v10/settings', 'settings:write', '200'],
  ['get', '/v10/invoices', 'finance:read', '200'],
  ['get', '/v10/invoices/{id}', 'finance:read', '200'],
  ['post', '/v10/invoices/{id}/book', 'finance:write', '200'],
  ['post', '/v10/invoices/{id}/credit-notes', 'finance:write', '201'],
  ['get', '/v10/credit-notes', 'finance:read', '200'],
  ['get', '/v10/credit-notes/{id}', 'finance:read', '200'],
  ['post', '/v10/credit-notes/{id}/book', 'finance:write', '200'],
  ['get', '/v10/accounting-entries', 'finance:read', '200'],
];

const AT = '2026-01-01T00:00:00.000Z';
const address = { name: 'N', att: null, address: 'A 1', zip: '1000', region: '', city: 'C', country: 'NL' };
const order: Order = {
  id: 1,
  brandId: 1,
  orderNumber: 1001,
  status: 'approved',
  orderType: 'b2b',
  orderChannelId: 1,
  customerId: 1,
  customerNumber: 'C',
  dropId: null,
  currency: 'EUR',
  vatRateBasisPoints: 2500,
  pricesIncludeVat: false,
  email: null,
  telephone: null,
  reference: null,
  notes: null,
  invoiceAddress: address,
  deliveryAddress: address,
  shippingCode: { code: 'standard', dropPointId: null },
  shippingCost: 500,
  responsiblePerson: { email: 'e', firstName: 'F', lastName: null },
  orderMeta: {},
  netTotal: 1500,
  vatTotal: 375,
  total: 1875,
  approvedAt: AT,
  cancelledAt: null,
  archivedAt: null,
  createdByUserId: 1,
  createdAt: AT,
  updatedAt: AT,
  lines: [
    {
      id: 1,
      orderId: 1,
      variantId: 1,
      productId: 1,
      sku: 'S',
      ean: null,
      itemNumber: 'P',
      productName: 'P',
      attributes: {},
      countryOfOrigin: null,
      composition: null,
      hsTariffCode: null,
      tracksInventory: true,
      quantity: 1,
      unitPrice: 1000,
      discountBasisPoints: 0,
      totalPrice: 1000,
      reservations: [{ locationId: 1, quantity: 1 }],
      shippedQuantity: 1,
      deliveredQuantity: 0,
      invoicedQuantity: 0,
      regulatedQuantity: 0,
    },
  ],
};
const shipment: Shipment = {
  id: 1,
  brandId: 1,
  shipmentNumber: 2001,
  orderId: 1,
  orderNumber: 1001,
  customerId: 1,
  status: 'completed',
  shippingCost: 500,
  carrier: 'gls',
  colli: [
    { trackTrace: 'T', trackTraceLink: null, ssccNumber: null, lines: [{ variantId: 1, sku: 'S', quantity: 1 }] },
  ],
  deliveredAt: AT,
  cancelledAt: null,
  createdAt: AT,
  updatedAt: AT,
  lines: [
    { id: 1, shipmentId: 1, orderLineId: 1, variantId: 1, sku: 'S', ean: null, quantity: 1, deliveredQuantity: 1 },
  ],
};
const financialLine = {
  id: 1,
  kind: 'product' as const,
  orderLineId: 1,
  variantId: 1,
  sku: 'S',
  description: 'P',
  quantity: 1,
  unitPrice: 1000,
  discountBasisPoints: 0,
  totalPrice: 1000,
};
const document = {
  id: 1,
  brandId: 1,
  status: 'booked' as const,
  orderId: 1,
  customerId: 1,
  currency: 'EUR',
  vatRateBasisPoints: 2500,
  pricesIncludeVat: false,
  netTotal: 1000,
  vatTotal: 250,
  total: 1250,
  bookedAt: AT,
  createdAt: AT,
  updatedAt: AT,
  lines: [financialLine],
};
const invoice: Invoice = { ...document, invoiceNumber: 3001, shipmentId: 1, inventoryRegulated: true };
const creditNote: CreditNote = { ...document, creditNoteNumber: 4001, invoiceId: 1, returnId: null };
const entry: AccountingEntry = {
  id: 1,
  brandId: 1,
  entryNumber: 1,
  documentType: 'invoice',
  documentId: 1,
  date: '2026-01-01',
  currency: 'EUR',
  lines: [{ account: 'accounts_receivable', debit: 1250, credit: 0 }],
  createdAt: AT,
  updatedAt: AT,
};
const marks = [
  { brandId: 1, documentType: 'order' as const, documentId: 1, systemId: 'erp', exportedAt: AT, note: null },
];
const timeline = [
  {
    id: 1,
    brandId: 1,
    documentType: 'order' as const,
    documentId: 1,
    kind: 'created',
    note: null,
    systemId: null,
    userId: 1,
    createdAt: AT,
  },
];

/** Each schema and an object its presenter returns with every optional part present. */
const PRESENTED: Record<string, object> = {
  Order: presentOrderDetail({ order, shipments: [shipment], invoices: [invoice], exports: marks, timeline }, [
    'shipments',
    'invoices',
  ]),
  OrderLine: presentOrderLine(order.lines[0]!),
  OrderAddress: presentOrderAddress(address)!,
  ShippingCode: presentOrderDetail({ order, shipments: [], invoices: [], exports: [], timeline: [] }, [])
    .shipping_code!,
  ResponsiblePerson: presentOrderDetail({ order, shipments: [], invoices: [], exports: [], timeline: [] }, [])
    .responsible_person!,
  Shipment: presentShipmentDetail({ shipment, exports: marks, timeline }),
  ShipmentLine: presentShipmentLine(shipment.lines[0]!),
  Colli: presentShipmentDetail({ shipment, exports: [], timeline: [] }).colli[0]!,
  Invoice: presentInvoiceDetail({
    invoice,
    exports: marks,
    timeline,
    accountingEntry: entry,
    creditNotes: [creditNote],
  }),
  CreditNote: presentCreditNoteDetail({ creditNote, exports: marks, timeline, accountingEntry: entry }),
  FinancialLine: presentFinancialLine(financialLine),
  AccountingEntry: presentAccountingEntryDetail({ entry, exports: marks, timeline }),
  OrderChannel: presentOrderChannel({
    id: 1,
    brandId: 1,
    publicId: 'p',
    name: 'N',
    orderType: 'b2b',
    autoApprove: false,
    dropId: null,
    createdAt: AT,
    updatedAt: AT,
  }),
  Settings: presentSettings(defaultBrandSettings(1)),
  ExportMark: presentExportMarks(marks)[0]!,
  TimelineEvent: presentTimeline(timeline)[0]!,
};

for (const dialect of oneTestDialect()) {
  describe(`OpenAPI of orders, shipments, finance and settings [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let doc: Document;

    beforeAll(async () => {
      doc = (await request(t.server).get('/openapi.json')).body as Document;
    });

    it('documents every route with its scope and a response schema', () => {
      for (const [method, path, scope, status] of ROUTES) {
        const operation = doc.paths[path]?.[method];
        expect({ route: `${method} ${path}`, documented: operation !== undefined }).toEqual({
          route: `${method} ${path}`,
          documented: true,
        });
        expect(operation!.security).toEqual([
          { bearer: [scope], app_key: [] },
          { access_token: [scope], app_key: [] },
        ]);
        expect(operation!.responses[status]!.content).toBeDefined();
      }
      expect(doc.paths['/v10/orders']!.get!.parameters.map((p) => p.name)).toEqual([
        'filter_groups',
        'sort',
        'limit',
        'cursor',
        'starting_after',
        'includes[]',
        'page',
      ]);
    });

    it('describes the order creation body with its DTOs', () => {
      expect(
        doc.paths['/v10/order-channels/{publicId}/orders']!.post!.requestBody!.content['application/json'].schema,
      ).toEqual({ $ref: '#/components/schemas/PlaceOrderRequestDto' });
      expect(doc.components.schemas['PlaceOrderRequestDto']!.required).toEqual(['order']);
      expect(doc.components.schemas['PlaceOrderDto']!.required).toEqual(['lines']);
      expect(Object.keys(doc.components.schemas['PlaceOrderDto']!.properties!)).toEqual(
        expect.arrayContaining(['customer_id', 'customer_number', 'drop_id', 'drop_code', 'lines', 'shipping_cost']),
      );
      expect(doc.components.schemas['ArticleQuantityDto']!.required).toEqual(['quantity']);
      expect(doc.components.schemas['UpdateSettingsDto']!.required ?? []).toEqual([]);
    });

    it('documents every field the presenters return, and no other', () => {
      for (const [name, presented] of Object.entries(PRESENTED)) {
        const schema = doc.components.schemas[name];
        expect({ name, properties: Object.keys(schema?.properties ?? {}).sort() }).toEqual({
          name,
          properties: Object.keys(presented).sort(),
        });
      }
    });
  });
}
