import {
  CatalogRelations,
  CostPriceSet,
  VariantCostPrice,
  VariantPrice,
  VariantRecord,
  WeightUnit,
  emptyCatalogRelations,
  formatDecimal,
} from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  boolean,
  component,
  currency,
  dateTime,
  day,
  integer,
  meta,
  amount,
  nullable,
  oneOfValues,
  optional,
  string,
  stringMap,
} from '../http/wire-schema';
import { StockBalanceSchema, presentStockBalance } from './stock.presenter';
import { money, moneyOrNull } from './amounts';

/** Weights are stored in thousandths of their unit (1.5 kg → 1500). */
const WEIGHT_SCALE = 3;

/** A stored weight as a JSON number in its unit, or null. */
export function presentWeight(weight: number | null): number | null {
  return weight === null ? null : formatDecimal(weight, WEIGHT_SCALE);
}

/** A weight unit, as products and variants show it. */
export const weightUnit = oneOfValues<WeightUnit>(['g', 'kg']);

/** Prices of a variant in one currency, as decimals (`offer_price` / `b2c_offer_price` null when not on offer). */
export const VariantPriceSchema = component(
  'VariantPrice',
  Type.Object({
    currency: currency(),
    sales_price: amount('Wholesale (B2B) price'),
    rec_sales_price: amount('Recommended retail (B2C) price'),
    offer_price: nullable(Type.Number(), { description: 'Replaces sales_price on B2B when set' }),
    b2c_offer_price: nullable(Type.Number(), {
      description: 'Replaces rec_sales_price on B2C when set (the variant is on sale)',
    }),
  }),
);
export type VariantPriceWire = Static<typeof VariantPriceSchema>;

export function presentVariantPrice(price: VariantPrice): VariantPriceWire {
  return {
    currency: price.currency,
    sales_price: money(price.salesPrice),
    rec_sales_price: money(price.recSalesPrice),
    offer_price: moneyOrNull(price.offerPrice),
    b2c_offer_price: moneyOrNull(price.b2cOfferPrice),
  };
}

/** A variant's cost in one cost price set, with the set's currency and label. */
export const VariantCostPriceSchema = component(
  'VariantCostPrice',
  Type.Object({
    cost_price_set_id: integer(),
    currency: nullable(string(), { description: "The cost price set's currency" }),
    label: nullable(string(), { description: "The cost price set's label" }),
    cost_price: amount('Cost in the set currency'),
  }),
);
export type VariantCostPriceWire = Static<typeof VariantCostPriceSchema>;

export function presentVariantCostPrice(
  cost: VariantCostPrice,
  sets: ReadonlyMap<number, CostPriceSet>,
): VariantCostPriceWire {
  const set = sets.get(cost.costPriceSetId);
  return {
    cost_price_set_id: cost.costPriceSetId,
    currency: set?.currency ?? null,
    label: set?.label ?? null,
    cost_price: money(cost.costPrice),
  };
}

const AS_THE_PRODUCT = "Override of the product's field; null: as the product";

/**
 * A variant as `presentVariant` builds it; the variant list's `Variant` adds the product
 * (`VariantWithProductSchema`, beside the product it embeds).
 */
export const VariantSchema = Type.Object({
  id: integer(),
  product_id: integer(),
  item_number: string("The product's item number"),
  sku: string(),
  ean: nullable(string()),
  attributes: stringMap('e.g. {"color": "Navy", "size": "M"}'),
  archived: boolean('Cannot be sold on B2B'),
  b2c_available: boolean('False blocks B2C sale'),
  make_to_order_b2b: nullable(boolean(), { description: AS_THE_PRODUCT }),
  make_to_order_b2c: nullable(boolean(), { description: AS_THE_PRODUCT }),
  noos: nullable(boolean(), { description: AS_THE_PRODUCT }),
  weight: nullable(Type.Number(), { description: "Override of the product's weight, in weight_type units" }),
  weight_type: nullable(weightUnit),
  release_date: nullable(day("Override of the product's release date")),
  meta: meta('Custom fields'),
  position: integer('Order within the product'),
  drop_ids: arrayOf(integer()),
  created_at: dateTime(),
  updated_at: dateTime(),
  prices: optional(arrayOf(VariantPriceSchema, 'With includes[]=prices (variants.prices on products)')),
  inventory: optional(
    arrayOf(StockBalanceSchema, 'With includes[]=inventory (variants.inventory on products); one row per location'),
  ),
  cost_prices: optional(
    arrayOf(VariantCostPriceSchema, 'With includes[]=cost_prices (variants.cost_prices on products)'),
  ),
});
export type VariantWire = Static<typeof VariantSchema>;

/**
 * A variant as the wire shows it. `includes` are the variant's own names (`prices`,
 * `inventory`, `cost_prices`); the related records come from `relations` (stock by variant id,
 * cost price sets by id). The variant list embeds the product itself (`VariantWithProductWire`).
 */
export function presentVariant(
  record: VariantRecord,
  itemNumber: string,
  includes: readonly string[] = [],
  relations: CatalogRelations = emptyCatalogRelations(),
): VariantWire {
  const { variant } = record;
  const wire: VariantWire = {
    id: variant.id,
    product_id: variant.productId,
    item_number: itemNumber,
    sku: variant.sku,
    ean: variant.ean,
    attributes: variant.attributes,
    archived: variant.archived,
    b2c_available: variant.b2cAvailable,
    make_to_order_b2b: variant.makeToOrderB2b,
    make_to_order_b2c: variant.makeToOrderB2c,
    noos: variant.noos,
    weight: presentWeight(variant.weight),
    weight_type: variant.weightType,
    release_date: variant.releaseDate,
    meta: variant.meta,
    position: variant.position,
    drop_ids: variant.dropIds,
    created_at: variant.createdAt,
    updated_at: variant.updatedAt,
  };
  if (includes.includes('prices')) wire.prices = record.prices.map(presentVariantPrice);
  if (includes.includes('inventory')) wire.inventory = (relations.stock.get(variant.id) ?? []).map(presentStockBalance);
  if (includes.includes('cost_prices'))
    wire.cost_prices = record.costPrices.map((cost) => presentVariantCostPrice(cost, relations.costPriceSets));
  return wire;
}
