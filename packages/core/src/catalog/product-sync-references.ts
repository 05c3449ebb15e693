import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { IdOrCode, resolveReferences } from '../shared/reference';
import { Repositories } from '../shared/unit-of-work.ports';
import { InventoryLocation } from '../inventory/inventory.entities';
import { Supplier } from '../suppliers/supplier.entities';
import { Category, CostPriceSet, Drop, ProductLocale } from './catalog.entities';
import {
  ProductSyncItem,
  ProductSupplierInput,
  ProductTranslationInput,
  VariantCostPriceInput,
  VariantSyncItem,
} from './product-sync.input';
import { settleAll } from '../shared/settle-all';

/**
 * The records a product sync names by number, code, id or name (categories, suppliers, locales,
 * drops, inventory locations, cost price sets), loaded for the whole request in a few queries
 * and resolved per item. Categories and cost price sets that the request may create are planned
 * here and inserted only once the whole request is known to be valid.
 */

/** The label a currency's default cost price set gets when a sync needs it before one exists. */
export const DEFAULT_COST_PRICE_SET_LABEL = 'Default';

const norm = (name: string) => name.trim().toLowerCase();

/** Category names compare case-insensitively, like the repository's `findByNames`. */
export class CategoryPlan {
  private readonly tops = new Map<string, Category>();
  private readonly subs = new Map<string, Category>();
  private readonly missingTops = new Map<string, string>();
  private readonly missingSubs = new Map<string, { top: string; sub: string }>();
  private readonly createdTops = new Map<string, number>();
  private readonly createdSubs = new Map<string, number>();

  private constructor(tops: Category[], subs: Category[]) {
    for (const top of tops) if (!this.tops.has(norm(top.name))) this.tops.set(norm(top.name), top);
    for (const sub of subs)
      if (!this.subs.has(`${sub.parentId}\u0000${norm(sub.name)}`))
        this.subs.set(`${sub.parentId}\u0000${norm(sub.name)}`, sub);
  }

  /** Loads every named top category and every named subcategory under them: two queries. */
  static async load(
    tx: Pick<Repositories, 'categories'>,
    brandId: number,
    names: { top: string; sub: string }[],
  ): Promise<CategoryPlan> {
    if (names.length === 0) return new CategoryPlan([], []);
    const topNames = [...new Map(names.map(({ top }) => [norm(top), top.trim()])).values()];
    const tops = (
      await tx.categories.findByNames(
        brandId,
        topNames.map((name) => ({ parentId: null, name })),
      )
    ).filter((c) => c.parentId === null);
    const topIds = new Map(tops.map((top) => [norm(top.name), top.id]));
    const subKeys = new Map<string, { parentId: number; name: string }>();
    for (const { top, sub } of names) {
      const parentId = topIds.get(norm(top));
      if (sub.trim() !== '' && parentId !== undefined)
        subKeys.set(`${parentId}\u0000${norm(sub)}`, { parentId, name: sub.trim() });
    }
    const subs = subKeys.size > 0 ? await tx.categories.findByNames(brandId, [...subKeys.values()]) : [];
    return new CategoryPlan(tops, subs);
  }

  /**
   * The key of a (top, sub) pair to use with `idOf` once `createMissing` ran, or null when the
   * category does not exist and may not be created.
   */
  require(top: string, sub: string, createIfMissing: boolean): string | null {
    const key = `${norm(top)}\u0000${norm(sub)}`;
    const existingTop = this.tops.get(norm(top));
    const exists =
      existingTop !== undefined && (sub.trim() === '' || this.subs.has(`${existingTop.id}\u0000${norm(sub)}`));
    if (exists) return key;
    // Another reference of the request creates it: that is enough, whatever the order of the two.
    const planned = sub.trim() === '' ? this.missingTops.has(norm(top)) : this.missingSubs.has(key);
    if (planned) return key;
    if (!createIfMissing) return null;
    if (!existingTop && !this.missingTops.has(norm(top))) this.missingTops.set(norm(top), top.trim());
    if (sub.trim() !== '' && !this.missingSubs.has(key))
      this.missingSubs.set(key, { top: top.trim(), sub: sub.trim() });
    return key;
  }

  /** Inserts the categories `require` planned to create (top categories first). */
  async createMissing(tx: Pick<Repositories, 'categories' | 'ids'>, clock: Clock, brandId: number): Promise<void> {
    const count = this.missingTops.size + this.missingSubs.size;
    if (count === 0) return;
    const ids = await tx.ids.next('categories', count);
    let next = 0;
    const now = clock.now();
    for (const [key, name] of this.missingTops) {
      const id = ids[next++]!;
      await tx.categories.insert({ id, brandId, parentId: null, name, createdAt: now, updatedAt: now });
      this.createdTops.set(key, id);
    }
    for (const [key, { top, sub }] of this.missingSubs) {
      const id = ids[next++]!;
      await tx.categories.insert({ id, brandId, parentId: this.topId(top), name: sub, createdAt: now, updatedAt: now });
      this.createdSubs.set(key, id);
    }
    this.missingTops.clear();
    this.missingSubs.clear();
  }

  private topId(top: string): number {
    const id = this.tops.get(norm(top))?.id ?? this.createdTops.get(norm(top));
    if (id === undefined) throw new Error(`category ${top} was neither found nor created`);
    return id;
  }

  /** The id of a category named by a key from `require`. */
  idOf(key: string): number {
    const [top = '', sub = ''] = key.split('\u0000');
    const topId = this.topId(top);
    if (sub === '') return topId;
    const id = this.subs.get(`${topId}\u0000${sub}`)?.id ?? this.createdSubs.get(key);
    if (id === undefined) throw new Error(`category ${top}/${sub} was neither found nor created`);
    return id;
  }
}

/** Cost price sets are few per brand: all are loaded, and the ones a request needs but lacks are created. */
export class CostPriceSetPlan {
  private readonly missing = new Map<string, { label: string; currency: string; isDefault: boolean }>();
  private readonly created = new Map<string, number>();

  constructor(private readonly sets: CostPriceSet[]) {}

  byId(id: number): CostPriceSet | undefined {
    return this.sets.find((set) => set.id === id);
  }

  /** The currency's default set (planned for creation when the brand has none in that currency). */
  defaultSet(currency: string): string {
    const existing = this.sets.find((set) => set.isDefault && set.currency === currency);
    if (existing) return `id:${existing.id}`;
    const key = `default:${currency}`;
    if (!this.missing.has(key))
      this.missing.set(key, { label: DEFAULT_COST_PRICE_SET_LABEL, currency, isDefault: true });
    return key;
  }

  /** The set with this label (case-insensitive) in the currency, planned for creation when missing. */
  labelled(label: string, currency: string): string {
    const matches = this.sets.filter((set) => set.currency === currency && norm(set.label) === norm(label));
    const existing = matches.find((set) => set.isDefault) ?? matches[0];
    if (existing) return `id:${existing.id}`;
    const key = `label:${currency}:${norm(label)}`;
    if (!this.missing.has(key)) this.missing.set(key, { label: label.trim(), currency, isDefault: false });
    return key;
  }

  async createMissing(tx: Pick<Repositories, 'costPriceSets' | 'ids'>, clock: Clock, brandId: number): Promise<void> {
    if (this.missing.size === 0) return;
    const ids = await tx.ids.next('cost_price_sets', this.missing.size);
    let next = 0;
    const now = clock.now();
    for (const [key, { label, currency, isDefault }] of this.missing) {
      const id = ids[next++]!;
      await tx.costPriceSets.insert({ id, brandId, label, currency, isDefault, createdAt: now });
      this.created.set(key, id);
    }
    this.missing.clear();
  }

  idOf(key: string): number {
    if (key.startsWith('id:')) return Number(key.slice(3));
    const id = this.created.get(key);
    if (id === undefined) throw new Error(`cost price set ${key} was not created`);
    return id;
  }
}

/** What an item's references resolved to; keys of planned records turn into ids after `createMissing`. */
export interface ResolvedProductReferences {
  /** Category keys (see `CategoryPlan.require`), when the item sent categories. */
  categoryKeys: string[];
  suppliers: { supplier: Supplier; input: ProductSupplierInput; costPriceSetKey: string }[];
  translations: { locale: ProductLocale; input: ProductTranslationInput }[];
  variants: Map<VariantSyncItem, ResolvedVariantReferences>;
}

export interface ResolvedVariantReferences {
  dropIds: number[];
  costPrices: { costPriceSetKey: string; input: VariantCostPriceInput }[];
  /** Per inventory change, the named location's id, or null for the default location. */
  locationIds: (number | null)[];
}

/** Everything the request names, loaded once. */
export interface ProductSyncReferences {
  categories: CategoryPlan;
  costPriceSets: CostPriceSetPlan;
  suppliers: Map<string, Supplier>;
  locales: Map<IdOrCode, ProductLocale>;
  drops: Map<IdOrCode, Drop>;
  locations: Map<number, InventoryLocation>;
  defaultLocation: InventoryLocation | null;
}

/** The items and variants a sync will write (deletes name nothing else). */
function livingVariants(
  items: ProductSyncItem[],
): { item: ProductSyncItem; i: number; variant: VariantSyncItem; j: number }[] {
  return items.flatMap((item, i) =>
    item.delete ? [] : (item.variants ?? []).flatMap((variant, j) => (variant.delete ? [] : [{ item, i, variant, j }])),
  );
}

type ProductSyncReferenceRepositories = Pick<
  Repositories,
  'categories' | 'costPriceSets' | 'drops' | 'inventoryLocations' | 'productLocales' | 'suppliers'
>;

/**
 * Loads every record the request names, in one or two queries per kind, and reports drops,
 * locales and locations that do not exist. Suppliers, categories and cost price sets are
 * reported per item by `resolveProductReferences`.
 */
export async function loadProductSyncReferences(
  tx: ProductSyncReferenceRepositories,
  brandId: number,
  items: ProductSyncItem[],
  violations: ViolationList,
): Promise<ProductSyncReferences> {
  const living = items.map((item, i) => ({ item, i })).filter(({ item }) => !item.delete);
  const variants = livingVariants(items);

  const categoryNames = living.flatMap(({ item }) =>
    (item.categories?.categories ?? []).map((c) => ({ top: c.topCategory, sub: c.subCategory ?? '' })),
  );
  const supplierNumbers = [
    ...new Set(living.flatMap(({ item }) => (item.suppliers?.suppliers ?? []).map((s) => s.supplierNumber))),
  ];
  // A translation naming no locale is reported by the field checks.
  const localeRefs = living.flatMap(({ item, i }) =>
    (item.translations ?? []).flatMap((t, k) =>
      t.locale.id !== undefined || t.locale.code !== undefined
        ? [{ ref: t.locale, pointer: `/products/${i}/translations/${k}` }]
        : [],
    ),
  );
  const dropRefs = variants.flatMap(({ variant, i, j }) =>
    (variant.drops?.drops ?? []).map((ref, k) => ({ ref, pointer: `/products/${i}/variants/${j}/drops/${k}` })),
  );
  const locationIds = [
    ...new Set(
      variants.flatMap(({ variant }) =>
        (variant.inventory ?? []).flatMap((change) =>
          change.inventoryLocationId !== undefined ? [change.inventoryLocationId] : [],
        ),
      ),
    ),
  ];
  const needsCostPriceSets =
    variants.some(({ variant }) => (variant.costPrices ?? []).length > 0) || supplierNumbers.length > 0;
  const needsDefaultLocation = variants.some(({ variant }) =>
    (variant.inventory ?? []).some((change) => change.inventoryLocationId === undefined),
  );

  const [categories, suppliers, sets, locations, defaultLocation] = await settleAll([
    CategoryPlan.load(tx, brandId, categoryNames),
    supplierNumbers.length > 0 ? tx.suppliers.findByNumbers(brandId, supplierNumbers) : Promise.resolve([]),
    needsCostPriceSets ? tx.costPriceSets.all(brandId) : Promise.resolve([]),
    locationIds.length > 0 ? tx.inventoryLocations.findByIds(brandId, locationIds) : Promise.resolve([]),
    needsDefaultLocation ? tx.inventoryLocations.findDefault(brandId) : Promise.resolve(null),
  ]);
  const locales = await resolveReferences(
    localeRefs,
    'product locale',
    {
      byIds: (ids) => tx.productLocales.findByIds(brandId, ids),
      byCodes: (codes) => tx.productLocales.findByCodes(brandId, codes),
    },
    violations,
  );
  const drops = await resolveReferences(
    dropRefs,
    'drop',
    {
      byIds: (ids) => tx.drops.findByIds(brandId, ids),
      byCodes: (codes) => tx.drops.findByCodes(brandId, codes),
    },
    violations,
  );

  for (const { item } of living) {
    for (const category of item.categories?.categories ?? []) {
      if (category.createIfMissing) categories.require(category.topCategory, category.subCategory ?? '', true);
    }
  }

  return {
    categories,
    costPriceSets: new CostPriceSetPlan(sets),
    suppliers: new Map(suppliers.map((s) => [s.supplierNumber, s])),
    locales,
    drops,
    locations: new Map(locations.map((l) => [l.id, l])),
    defaultLocation,
  };
}

/** Resolves one (not deleted) product item's references, reporting what does not exist under the item's pointer. */
export function resolveProductReferences(
  item: ProductSyncItem,
  pointer: string,
  refs: ProductSyncReferences,
  violations: ViolationList,
): ResolvedProductReferences {
  const categoryKeys: string[] = [];
  item.categories?.categories.forEach((category, k) => {
    const sub = category.subCategory ?? '';
    const key = refs.categories.require(category.topCategory, sub, category.createIfMissing ?? false);
    const name =
      sub.trim() === ''
        ? JSON.stringify(category.topCategory)
        : `${JSON.stringify(category.topCategory)} / ${JSON.stringify(sub)}`;
    if (key === null)
      violations.add(
        `${pointer}/categories/${k}`,
        `names category ${name}, which does not exist; send create_if_missing: true to create it`,
      );
    else if (!categoryKeys.includes(key)) categoryKeys.push(key);
  });

  const suppliers: ResolvedProductReferences['suppliers'] = [];
  item.suppliers?.suppliers.forEach((input, k) => {
    const supplier = refs.suppliers.get(input.supplierNumber);
    if (!supplier) {
      violations.add(
        `${pointer}/suppliers/${k}/supplier_number`,
        `names supplier ${JSON.stringify(input.supplierNumber)}, which does not exist`,
      );
      return;
    }
    const label = input.costPriceSet?.trim();
    const costPriceSetKey = label
      ? refs.costPriceSets.labelled(label, supplier.currency)
      : refs.costPriceSets.defaultSet(supplier.currency);
    suppliers.push({ supplier, input, costPriceSetKey });
  });

  const translations: ResolvedProductReferences['translations'] = [];
  const localeIndex = new Map<number, number>();
  item.translations?.forEach((input, k) => {
    const locale = refs.locales.get(input.locale);
    if (!locale) return;
    const earlier = localeIndex.get(locale.id);
    if (earlier !== undefined)
      violations.add(`${pointer}/translations/${k}`, `repeats the locale ${locale.code} of translations[${earlier}]`);
    else {
      localeIndex.set(locale.id, k);
      translations.push({ locale, input });
    }
  });

  const variants = new Map<VariantSyncItem, ResolvedVariantReferences>();
  (item.variants ?? []).forEach((variant, j) => {
    if (variant.delete) return;
    variants.set(variant, resolveVariantReferences(variant, `${pointer}/variants/${j}`, refs, violations));
  });
  return { categoryKeys, suppliers, translations, variants };
}

function resolveVariantReferences(
  variant: VariantSyncItem,
  pointer: string,
  refs: ProductSyncReferences,
  violations: ViolationList,
): ResolvedVariantReferences {
  const dropIds = [
    ...new Set(
      (variant.drops?.drops ?? []).flatMap((ref) => {
        const drop = refs.drops.get(ref);
        return drop ? [drop.id] : [];
      }),
    ),
  ];

  const costPrices: ResolvedVariantReferences['costPrices'] = [];
  const setIndex = new Map<string, number>();
  variant.costPrices?.forEach((input, k) => {
    const at = `${pointer}/cost_prices/${k}`;
    let key: string;
    if (input.costPriceSetId !== undefined) {
      const set = refs.costPriceSets.byId(input.costPriceSetId);
      if (!set) {
        violations.add(
          `${at}/cost_price_set_id`,
          `names cost price set id ${input.costPriceSetId}, which does not exist`,
        );
        return;
      }
      if (set.currency !== input.currency) {
        violations.add(
          `${at}/cost_price_set_id`,
          `names a cost price set in ${set.currency}, not in ${input.currency}`,
        );
        return;
      }
      if (input.costPriceSetLabel !== undefined && norm(input.costPriceSetLabel) !== norm(set.label)) {
        violations.add(
          `${at}/cost_price_set_label`,
          `differs from the label ${JSON.stringify(set.label)} of cost price set id ${set.id}`,
        );
        return;
      }
      key = `id:${set.id}`;
    } else if (input.costPriceSetLabel !== undefined && input.costPriceSetLabel.trim() !== '') {
      key = refs.costPriceSets.labelled(input.costPriceSetLabel, input.currency);
    } else {
      key = refs.costPriceSets.defaultSet(input.currency);
    }
    const earlier = setIndex.get(key);
    if (earlier !== undefined) violations.add(at, `names the same cost price set as cost_prices[${earlier}]`);
    else {
      setIndex.set(key, k);
      costPrices.push({ costPriceSetKey: key, input });
    }
  });

  const locationIds = (variant.inventory ?? []).map((change, k) => {
    if (change.inventoryLocationId === undefined) return null;
    if (!refs.locations.has(change.inventoryLocationId)) {
      violations.add(
        `${pointer}/inventory/${k}/inventory_location_id`,
        `names inventory location ${change.inventoryLocationId}, which does not exist`,
      );
    }
    return change.inventoryLocationId;
  });
  return { dropIds, costPrices, locationIds };
}
