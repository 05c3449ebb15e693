import { RequestHandler } from 'express';
import { principalOf } from './auth';
import { Sqlite, Statement, idCounter } from './database';
import { httpErrors } from './http-errors';
import { OrderBody, parseOrderBody } from './order-body';
import {
  AddressRow,
  ChannelRow,
  CustomerRow,
  DEFAULT_SETTINGS,
  MovedBalances,
  PlacedOrder,
  ReservedBalance,
  addressOf,
  channelPublicId,
  checkChannel,
  checkCustomer,
  linesOf,
  orderEntityOf,
  presentPlacedOrder,
  reservationsOf,
  sendCreated,
  violationList,
} from './order-placement';
import {
  BalanceRow,
  PriceRow,
  ProductRow,
  VariantRow,
  checkSellable,
  customsValues,
  documentTotals,
  priceLines,
  reserveStock,
  unique,
} from './order-rules';

/** A select ending in `in (…)`, prepared once per list length. */
function selectIn<R>(db: Sqlite, head: string): (params: unknown[], values: unknown[]) => R[] {
  const prepared = new Map<number, Statement<unknown[], R>>();
  return (params, values) => {
    let statement = prepared.get(values.length);
    if (!statement) {
      statement = db.prepare<unknown[], R>(`${head} (${values.map(() => '?').join(', ')})`);
      prepared.set(values.length, statement);
    }
    return statement.all(...params, ...values);
  };
}

/** The prepared statements of order creation. */
function orderStatements(db: Sqlite) {
  const customerColumns = 'id, customer_number, currency, discount_basis_points, active';
  return {
    nextIds: idCounter(db),
    channel: db.prepare<[string, number], ChannelRow>(
      'select id, name, order_type, auto_approve, drop_id from order_channels where public_id = ? and brand_id = ?',
    ),
    settings: db.prepare<[number], typeof DEFAULT_SETTINGS>(
      'select requires_drop, default_vat_rate_basis_points from brand_settings where brand_id = ?',
    ),
    customerById: db.prepare<[number, number], CustomerRow>(
      `select ${customerColumns} from customers where brand_id = ? and id = ?`,
    ),
    // `+?` where a parameter meets an ORDER BY: see `listCustomers`.
    customerByNumber: db.prepare<[number, string], CustomerRow>(
      `select ${customerColumns} from customers where brand_id = +? and customer_number = +? order by id limit 1`,
    ),
    // By brand and owner, as the project reads it (every statement names its brand, DESIGN §9):
    // the owner index leads with brand_id since migration 0019.
    firstAddress: db.prepare<[number, number], AddressRow>(
      'select name, address, address_2, zip, region, city, country from customer_addresses ' +
        'where brand_id = ? and owner_id = ? order by position limit 1',
    ),
    brandCurrency: db.prepare<[number], string>('select currency from brands where id = ?').pluck(),
    variantsBySku: selectIn<VariantRow>(
      db,
      'select id, product_id, sku, ean, attributes, archived, b2c_available, make_to_order_b2b, make_to_order_b2c, noos, ' +
        'meta from variants where brand_id = ? and sku in',
    ),
    products: selectIn<ProductRow>(
      db,
      'select id, item_number, name, active, make_to_order_b2b, make_to_order_b2c, noos, no_inventory, ' +
        'min_order_quantity, order_colli_only, colli, meta from products where brand_id = ? and id in',
    ),
    prices: selectIn<PriceRow>(
      db,
      'select variant_id, currency, sales_price, rec_sales_price, offer_price, b2c_offer_price from variant_prices ' +
        'where brand_id = ? and variant_id in',
    ),
    balances: selectIn<BalanceRow>(
      db,
      'select variant_id, location_id, in_stock, reserved from stock_balances where brand_id = ? and variant_id in',
    ),
    defaultLocation: db
      .prepare<[number], number>('select id from inventory_locations where brand_id = ? and is_default = 1')
      .pluck(),
    // Returns the balance as it is left: inventory.changed announces it.
    reserve: db.prepare<[number, string, number, number, number], ReservedBalance>(
      'update stock_balances set reserved = reserved + ?, updated_at = ? ' +
        'where brand_id = ? and variant_id = ? and location_id = ? returning id, in_stock, reserved',
    ),
    insertMovement: db.prepare(
      'insert into stock_movements (id, brand_id, variant_id, location_id, in_stock_delta, reserved_delta, reason, ' +
        "note, document_type, document_id, user_id, created_at) values (?, ?, ?, ?, 0, ?, 'order_reserved', null, 'order', ?, ?, ?)",
    ),
    nextOrderNumber: db
      .prepare<[number], number>(
        "insert into document_sequences (brand_id, kind, last_value) values (?, 'order', 1) on conflict (brand_id, kind) " +
          'do update set last_value = document_sequences.last_value + 1 returning last_value',
      )
      .pluck(),
    insertOrder: db.prepare(
      'insert into orders (id, brand_id, order_number, status, order_type, order_channel_id, customer_id, ' +
        'customer_number, drop_id, currency, vat_rate_basis_points, prices_include_vat, email, telephone, reference, ' +
        'notes, invoice_address, delivery_address, shipping_code, shipping_cost, responsible_person, order_meta, ' +
        'net_total, vat_total, total, approved_at, cancelled_at, archived_at, created_by_user_id, created_at, updated_at) ' +
        "values (?, ?, ?, 'draft', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null, null, null, '{}', ?, ?, ?, null, null, null, ?, ?, ?)",
    ),
    insertLine: db.prepare(
      'insert into order_lines (id, brand_id, order_id, variant_id, product_id, sku, ean, item_number, product_name, ' +
        'attributes, country_of_origin, composition, hs_tariff_code, tracks_inventory, quantity, unit_price, ' +
        'discount_basis_points, total_price, reservations, shipped_quantity, delivered_quantity, invoiced_quantity, ' +
        'regulated_quantity) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0)',
    ),
    insertEvent: db.prepare(
      'insert into timeline_events (id, brand_id, document_type, document_id, kind, note, system_id, user_id, created_at) ' +
        "values (?, ?, 'order', ?, 'created', ?, null, ?, ?)",
    ),
    // The project's outbox also queues a delivery to every enabled endpoint subscribed (none in the bench).
    enabledEndpoints: db.prepare<[number], { id: number; events: string }>(
      'select id, events from webhook_endpoints where brand_id = +? and enabled = 1 order by id',
    ),
    insertOutboxEvents: insertMany(db, 'insert into events (brand_id, id, type, object, created_at) values', 5),
    // The kept totals of the orders list and the events feed (migration 0023), as the project keeps them.
    countOrder: db.prepare<[number]>(
      "insert into row_counts (brand_id, resource, row_count) values (?, 'orders', 1) on conflict (brand_id, resource) " +
        'do update set row_count = row_counts.row_count + 1',
    ),
    countEvents: db.prepare<[number, number, number]>(
      'insert into event_feeds (brand_id, events_written, events_stored) values (?, ?, ?) on conflict (brand_id) ' +
        'do update set events_written = event_feeds.events_written + excluded.events_written, ' +
        'events_stored = event_feeds.events_stored + excluded.events_stored',
    ),
  };
}

/** A multi-row insert (`head` followed by `rows` tuples of `columns` values), prepared once per row count. */
function insertMany(db: Sqlite, head: string, columns: number): (rows: unknown[][]) => void {
  const prepared = new Map<number, Statement<unknown[], unknown>>();
  const tuple = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  return (rows) => {
    let statement = prepared.get(rows.length);
    if (!statement) {
      statement = db.prepare<unknown[], unknown>(`${head} ${rows.map(() => tuple).join(', ')}`);
      prepared.set(rows.length, statement);
    }
    statement.run(...rows.flat());
  };
}

/**
 * `POST /v10/order-channels/:publicId/orders`: the project's placeOrder as prepared statements in
 * one BEGIN IMMEDIATE transaction. It reads channel, settings, customer (and its first address),
 * variants, products, prices, stock balances and the default location; refuses with the same
 * violations; then writes the same rows with the same values: ids from `id_counters`, reserved
 * pieces added to the balances, one `order_reserved` movement per reservation, the next order
 * number, the order and its lines, and the `created` timeline event. Channels that approve on
 * creation (which make a shipment too) are left out.
 */
export function createOrder(db: Sqlite): RequestHandler {
  const q = orderStatements(db);

  const place = db.transaction((brandId: number, userId: number, publicId: string, body: OrderBody) => {
    const channel = checkChannel(q.channel.get(publicId, brandId), publicId);
    const b2b = channel.order_type === 'b2b';
    const { violations, report } = violationList();

    const settings = q.settings.get(brandId) ?? DEFAULT_SETTINGS;
    const customer =
      body.customerId !== undefined
        ? q.customerById.get(brandId, body.customerId)
        : q.customerByNumber.get(brandId, body.customerNumber!);
    checkCustomer(body, customer, channel, settings, report);
    const currency = (b2b ? customer?.currency : q.brandCurrency.get(brandId)) ?? null;

    const variants = new Map(q.variantsBySku([brandId], unique(body.lines.map((l) => l.sku))).map((v) => [v.sku, v]));
    const found = [...variants.values()];
    const products = new Map(
      found.length ? q.products([brandId], unique(found.map((v) => v.product_id))).map((p) => [p.id, p]) : [],
    );
    const lines = linesOf(body, variants, products, report);
    checkSellable(lines, b2b, report);
    const prices = found.length
      ? q.prices(
          [brandId],
          found.map((v) => v.id),
        )
      : [];
    priceLines(lines, prices, { b2b, currency, discountBasisPoints: customer?.discount_basis_points ?? 0 }, report);
    const tracked = lines.filter((l) => l.product.no_inventory !== 1);
    const trackedVariantIds = unique(tracked.map((l) => l.variant.id));
    if (trackedVariantIds.length > 0)
      reserveStock(
        tracked,
        q.balances([brandId], trackedVariantIds),
        q.defaultLocation.get(brandId) ?? null,
        b2b,
        report,
      );
    if (violations.length > 0) throw httpErrors.violations('validation_failed', violations);

    const now = new Date().toISOString();
    const [orderId] = q.nextIds('orders', 1) as [number];
    q.nextIds('order_lines', lines.length).forEach((id, i) => (lines[i]!.id = id));
    const reservations = reservationsOf(lines);
    const moved = new MovedBalances();
    if (reservations.length > 0) {
      const movementIds = q.nextIds('stock_movements', reservations.length);
      reservations.forEach((r, i) => {
        const row = q.reserve.get(r.quantity, now, brandId, r.variant.id, r.locationId)!;
        q.insertMovement.run(movementIds[i], brandId, r.variant.id, r.locationId, r.quantity, orderId, userId, now);
        moved.add(r.variant, r.locationId, r.quantity, row);
      });
    }
    const stockObjects = moved.stockObjects(now);
    const orderNumber = q.nextOrderNumber.get(brandId)!;
    const pricesIncludeVat = !b2b;
    const vatRate = settings.default_vat_rate_basis_points;
    const totals = documentTotals(
      lines.reduce((sum, l) => sum + l.totalPrice, 0),
      vatRate,
      pricesIncludeVat,
    );
    const address = addressOf(q.firstAddress.get(brandId, customer!.id));
    const addressJson = address === null ? null : JSON.stringify(address);
    q.countOrder.run(brandId);
    q.insertOrder.run(
      orderId,
      brandId,
      orderNumber,
      channel.order_type,
      channel.id,
      customer!.id,
      customer!.customer_number,
      channel.drop_id,
      currency,
      vatRate,
      pricesIncludeVat ? 1 : 0,
      body.email,
      body.telephone,
      body.reference,
      body.notes,
      addressJson,
      addressJson,
      totals.netTotal,
      totals.vatTotal,
      totals.total,
      userId,
      now,
      now,
    );
    for (const l of lines)
      q.insertLine.run(
        l.id,
        brandId,
        orderId,
        l.variant.id,
        l.product.id,
        l.variant.sku,
        l.variant.ean,
        l.product.item_number,
        l.product.name,
        l.variant.attributes,
        ...customsValues(l),
        l.product.no_inventory === 1 ? 0 : 1,
        l.quantity,
        l.unitPrice,
        l.discountBasisPoints,
        l.totalPrice,
        JSON.stringify(l.reservations),
      );
    const [eventId] = q.nextIds('timeline_events', 1);
    q.insertEvent.run(eventId, brandId, orderId, `placed on channel ${channel.name}`, userId, now);
    const placed: PlacedOrder = {
      orderId,
      orderNumber,
      brandId,
      userId,
      channel,
      customer: customer!,
      currency,
      vatRate,
      pricesIncludeVat,
      body,
      address,
      totals,
      lines,
      now,
    };
    // The project's outbox: the stock's inventory.changed events, then order.created carrying the
    // order entity as the core saved it, numbered in that order and written in one statement.
    const outboxIds = q.nextIds('events', stockObjects.length + 1);
    q.countEvents.run(brandId, outboxIds.length, outboxIds.length);
    q.insertOutboxEvents([
      ...stockObjects.map((object, i) => [brandId, outboxIds[i], 'inventory.changed', JSON.stringify(object), now]),
      [brandId, outboxIds[stockObjects.length], 'order.created', JSON.stringify(orderEntityOf(placed)), now],
    ]);
    if (q.enabledEndpoints.all(brandId).length > 0) throw httpErrors.notImplemented('webhook endpoints');
    return presentPlacedOrder(placed);
  });

  return (req, res) => {
    const { brandId, userId } = principalOf(res)!;
    const body = parseOrderBody(req.body);
    const publicId = channelPublicId(req.params['publicId']);
    sendCreated(res, place.immediate(brandId, userId, publicId, body));
  };
}
