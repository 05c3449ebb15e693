import {
  CatalogRelations,
  CostPriceSet,
  Meta,
  VariantCostPrice,
  VariantPrice,
  VariantRecord,
  WeightUnit,
  emptyCatalogRelations,
  formatDecimal,
} from '@brand/core';
import { StockBalanceWire, presentStockBalance } from './stock.presenter';
import { money, moneyOrNull } from './amounts';

/** Weights are stored in thousandths of their unit (1.5 kg → 1500). */
const WEIGHT_SCALE = 3;

/** A stored weight as a JSON number in its unit, or null. */
export function presentWeight(weight: number | null): number | null {
  return weight === null ? null : formatDecimal(weight, WEIGHT_SCALE);
}

/** Prices of a variant in one currency, as decimals (`offer_price` / `b2c_offer_price` null when not on offer). */
export interface VariantPriceWire {
  currency: string;
  sales_price: number;
  rec_sales_price: number;
  offer_price: number | null;
  b2c_offer_price: number | null;
}

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
export interface VariantCostPriceWire {
  cost_price_set_id: number;
  currency: string | null;
  label: string | null;
  cost_price: number;
}

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

export interface VariantWire {
  id: number;
  product_id: number;
  /** The product's item number. */
  item_number: string;
  sku: string;
  ean: string | null;
  attributes: Record<string, string>;
  archived: boolean;
  b2c_available: boolean;
  /** Overrides of the product's fields; null means "as the product". */
  make_to_order_b2b: boolean | null;
  make_to_order_b2c: boolean | null;
  noos: boolean | null;
  weight: number | null;
  weight_type: WeightUnit | null;
  release_date: string | null;
  meta: Meta;
  /** Order of the variant within its product. */
  position: number;
  drop_ids: number[];
  created_at: string;
  updated_at: string;
  prices?: VariantPriceWire[];
  inventory?: StockBalanceWire[];
  cost_prices?: VariantCostPriceWire[];
}

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
