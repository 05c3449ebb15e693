import { RequestHandler } from 'express';
import { PoolClient } from 'pg';
import { principalOf } from '../auth';
import { httpErrors } from '../http-errors';
import { OrderBody, parseOrderBody } from '../order-body';
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
} from '../order-placement';
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
} from '../order-rules';
import { PgDatabase, named, rows } from './database';

const CUSTOMER_COLUMNS = 'id, customer_number, currency, discount_basis_points, active';

/** ../orders.ts's statements on Postgres; lists of values as one array parameter, so one statement serves every length. */
const SQL = named({
  order_channel:
    'select id, name, order_type, auto_approve, drop_id from order_channels where public_id = $1 and brand_id = $2',
  brand_settings: 'select requires_drop, default_vat_rate_basis_points from brand_settings where brand_id = $1',
  customer_by_id: `select ${CUSTOMER_COLUMNS} from customers where brand_id = $1 and id = $2`,
  customer_by_number: `select ${CUSTOMER_COLUMNS} from customers where brand_id = $1 and customer_number = $2 order by id limit 1`,
  first_address:
    'select name, address, address_2, zip, region, city, country from customer_addresses ' +
    'where brand_id = $1 and owner_id = $2 order by position limit 1',
  brand_currency: 'select currency from brands where id = $1',
  variants_by_sku:
    'select id, product_id, sku, ean, attributes, archived, b2c_available, make_to_order_b2b, make_to_order_b2c, noos, ' +
    'meta from variants where brand_id = $1 and sku = any($2::text[])',
  products_by_id:
    'select id, item_number, name, active, make_to_order_b2b, make_to_order_b2c, noos, no_inventory, ' +
    'min_order_quantity, order_colli_only, colli, meta from products where brand_id = $1 and id = any($2::bigint[])',
  prices_of_variants:
    'select variant_id, currency, sales_price, rec_sales_price, offer_price, b2c_offer_price from variant_prices ' +
    'where brand_id = $1 and variant_id = any($2::bigint[])',
  // Locked for the rest of the transaction in a fixed order, as the project's Postgres stock repository reads them.
  balances_for_update:
    'select variant_id, location_id, in_stock, reserved from stock_balances where brand_id = $1 and variant_id = any($2::bigint[]) ' +
    'order by variant_id, location_id for update',
  default_location: 'select id from inventory_locations where brand_id = $1 and is_default = 1',
  reserve:
    'update stock_balances set reserved = reserved + $1, updated_at = $2 ' +
    'where brand_id = $3 and variant_id = $4 and location_id = $5 returning id, in_stock, reserved',
  insert_movement:
    'insert into stock_movements (id, brand_id, variant_id, location_id, in_stock_delta, reserved_delta, reason, ' +
    "note, document_type, document_id, user_id, created_at) values ($1, $2, $3, $4, 0, $5, 'order_reserved', null, 'order', $6, $7, $8)",
  next_order_number:
    "insert into document_sequences (brand_id, kind, last_value) values ($1, 'order', 1) on conflict (brand_id, kind) " +
    'do update set last_value = document_sequences.last_value + 1 returning last_value',
  // The kept total of the orders list (migration 0023), as the project keeps it.
  count_order:
    "insert into row_counts (brand_id, resource, row_count) values ($1, 'orders', 1) on conflict (brand_id, resource) " +
    'do update set row_count = row_counts.row_count + 1',
  insert_order:
    'insert into orders (id, brand_id, order_number, status, order_type, order_channel_id, customer_id, ' +
    'customer_number, drop_id, currency, vat_rate_basis_points, prices_include_vat, email, telephone, reference, ' +
    'notes, invoice_address, delivery_address, shipping_code, shipping_cost, responsible_person, order_meta, ' +
    'net_total, vat_total, total, approved_at, cancelled_at, archived_at, created_by_user_id, created_at, updated_at) ' +
    "values ($1, $2, $3, 'draft', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, null, null, null, '{}', " +
    '$18, $19, $20, null, null, null, $21, $22, $23)',
  insert_line:
    'insert into order_lines (id, brand_id, order_id, variant_id, product_id, sku, ean, item_number, product_name, ' +
    'attributes, country_of_origin, composition, hs_tariff_code, tracks_inventory, quantity, unit_price, ' +
    'discount_basis_points, total_price, reservations, shipped_quantity, delivered_quantity, invoiced_quantity, ' +
    'regulated_quantity) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, 0, 0, 0, 0)',
  insert_timeline_event:
    'insert into timeline_events (id, brand_id, document_type, document_id, kind, note, system_id, user_id, created_at) ' +
    "values ($1, $2, 'order', $3, 'created', $4, null, $5, $6)",
  // The project's Postgres outbox: the brand's feed row locked for the rest of the transaction and
  // the events' ids drawn in the same statement (event.repositories.ts), then the events in one insert.
  lock_feed_and_draw:
    'with feed as (insert into event_feeds (brand_id, events_written, events_stored) values ($1, $2::int, $2::int) on conflict (brand_id) ' +
    'do update set events_written = event_feeds.events_written + excluded.events_written, ' +
    'events_stored = event_feeds.events_stored + excluded.events_stored returning brand_id) ' +
    "select nextval('ids_events') as id from feed cross join generate_series(1, $2::int)",
  insert_events:
    'insert into events (brand_id, id, type, object, created_at) ' +
    'select * from unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[])',
  enabled_endpoints: 'select id, events from webhook_endpoints where brand_id = $1 and enabled = 1 order by id',
});

/** The first row of a named statement, or undefined. */
async function first<R extends object>(
  client: PoolClient,
  statement: { name: string; text: string },
  values: unknown[],
) {
  return (await rows<R>(client, statement, values))[0];
}

/**
 * ../orders.ts on Postgres: the same reads, refusals and writes in one read-committed transaction
 * on one client acting for the brand, with the two locks the project takes there (the stock
 * balances `for update`, the brand's event feed row) and ids from the `ids_<kind>` sequences.
 */
export function pgCreateOrder(db: PgDatabase): RequestHandler {
  const place = (brandId: number, userId: number, publicId: string, body: OrderBody) =>
    db.transaction(brandId, async (client) => {
      const channel = checkChannel(await first<ChannelRow>(client, SQL.order_channel, [publicId, brandId]), publicId);
      const b2b = channel.order_type === 'b2b';
      const { violations, report } = violationList();

      const settings =
        (await first<typeof DEFAULT_SETTINGS>(client, SQL.brand_settings, [brandId])) ?? DEFAULT_SETTINGS;
      const customer =
        body.customerId !== undefined
          ? await first<CustomerRow>(client, SQL.customer_by_id, [brandId, body.customerId])
          : await first<CustomerRow>(client, SQL.customer_by_number, [brandId, body.customerNumber]);
      checkCustomer(body, customer, channel, settings, report);
      const currency =
        (b2b
          ? customer?.currency
          : (await first<{ currency: string }>(client, SQL.brand_currency, [brandId]))?.currency) ?? null;

      const variants = new Map(
        (await rows<VariantRow>(client, SQL.variants_by_sku, [brandId, unique(body.lines.map((l) => l.sku))])).map(
          (v) => [v.sku, v],
        ),
      );
      const found = [...variants.values()];
      const products = new Map(
        found.length
          ? (await rows<ProductRow>(client, SQL.products_by_id, [brandId, unique(found.map((v) => v.product_id))])).map(
              (p) => [p.id, p],
            )
          : [],
      );
      const lines = linesOf(body, variants, products, report);
      checkSellable(lines, b2b, report);
      const prices = found.length
        ? await rows<PriceRow>(client, SQL.prices_of_variants, [brandId, found.map((v) => v.id)])
        : [];
      priceLines(lines, prices, { b2b, currency, discountBasisPoints: customer?.discount_basis_points ?? 0 }, report);
      const tracked = lines.filter((l) => l.product.no_inventory !== 1);
      const trackedVariantIds = unique(tracked.map((l) => l.variant.id));
      if (trackedVariantIds.length > 0) {
        const balances = await rows<BalanceRow>(client, SQL.balances_for_update, [brandId, trackedVariantIds]);
        const location = await first<{ id: number }>(client, SQL.default_location, [brandId]);
        reserveStock(tracked, balances, location?.id ?? null, b2b, report);
      }
      if (violations.length > 0) throw httpErrors.violations('validation_failed', violations);

      const now = new Date().toISOString();
      const [orderId] = (await db.nextIds(client, 'orders', 1)) as [number];
      (await db.nextIds(client, 'order_lines', lines.length)).forEach((id, i) => (lines[i]!.id = id));
      const reservations = reservationsOf(lines);
      const moved = new MovedBalances();
      if (reservations.length > 0) {
        const movementIds = await db.nextIds(client, 'stock_movements', reservations.length);
        for (const [i, r] of reservations.entries()) {
          const row = (await first<ReservedBalance>(client, SQL.reserve, [
            r.quantity,
            now,
            brandId,
            r.variant.id,
            r.locationId,
          ]))!;
          await rows(client, SQL.insert_movement, [
            movementIds[i],
            brandId,
            r.variant.id,
            r.locationId,
            r.quantity,
            orderId,
            userId,
            now,
          ]);
          moved.add(r.variant, r.locationId, r.quantity, row);
        }
      }
      const stockObjects = moved.stockObjects(now);
      const orderNumber = Number(
        (await first<{ last_value: number }>(client, SQL.next_order_number, [brandId]))!.last_value,
      );
      const pricesIncludeVat = !b2b;
      const vatRate = settings.default_vat_rate_basis_points;
      const totals = documentTotals(
        lines.reduce((sum, l) => sum + l.totalPrice, 0),
        vatRate,
        pricesIncludeVat,
      );
      const address = addressOf(await first<AddressRow>(client, SQL.first_address, [brandId, customer!.id]));
      const addressJson = address === null ? null : JSON.stringify(address);
      await rows(client, SQL.count_order, [brandId]);
      await rows(client, SQL.insert_order, [
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
      ]);
      for (const l of lines)
        await rows(client, SQL.insert_line, [
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
        ]);
      const [eventId] = await db.nextIds(client, 'timeline_events', 1);
      await rows(client, SQL.insert_timeline_event, [
        eventId,
        brandId,
        orderId,
        `placed on channel ${channel.name}`,
        userId,
        now,
      ]);
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
      const outbox = [
        ...stockObjects.map((object) => ['inventory.changed', JSON.stringify(object)]),
        ['order.created', JSON.stringify(orderEntityOf(placed))],
      ];
      const outboxIds = (await rows<{ id: number }>(client, SQL.lock_feed_and_draw, [brandId, outbox.length]))
        .map((r) => Number(r.id))
        .sort((a, b) => a - b);
      await rows(client, SQL.insert_events, [
        outbox.map(() => brandId),
        outboxIds,
        outbox.map(([type]) => type),
        outbox.map(([, object]) => object),
        outbox.map(() => now),
      ]);
      if ((await rows(client, SQL.enabled_endpoints, [brandId])).length > 0)
        throw httpErrors.notImplemented('webhook endpoints');
      return presentPlacedOrder(placed);
    });

  return (req, res, next) => {
    const { brandId, userId } = principalOf(res)!;
    const body = parseOrderBody(req.body);
    const publicId = channelPublicId(req.params['publicId']);
    place(brandId, userId, publicId, body).then((answer) => sendCreated(res, answer), next);
  };
}
