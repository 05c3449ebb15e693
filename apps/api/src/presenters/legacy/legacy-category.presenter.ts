import { Category, LegacyCategoryRelations } from '@brand/core';
import { LegacyProductWire, presentLegacyProduct } from './legacy-product.presenter';

/** A category of the older interface. */
export interface LegacyCategoryWire {
  id: number;
  brand_id: number;
  /** The parent category's id; null for a top category. */
  parent: number | null;
  name: string;
  created_at: string;
  updated_at: string;
  /** With `includes[]=children`. */
  children?: LegacyCategoryWire[];
  /** With `includes[]=products`. */
  products?: LegacyProductWire[];
}

const NO_RELATIONS: LegacyCategoryRelations = { includes: [], children: new Map(), products: new Map() };

/** A category, with children and products when they were included (children carry no includes of their own). */
export function presentLegacyCategory(
  category: Category,
  relations: LegacyCategoryRelations = NO_RELATIONS,
): LegacyCategoryWire {
  const wire: LegacyCategoryWire = {
    id: category.id,
    brand_id: category.brandId,
    parent: category.parentId,
    name: category.name,
    created_at: category.createdAt,
    updated_at: category.updatedAt,
  };
  if (relations.includes.includes('children'))
    wire.children = (relations.children.get(category.id) ?? []).map((child) => presentLegacyCategory(child));
  if (relations.includes.includes('products'))
    wire.products = (relations.products.get(category.id) ?? []).map((product) => presentLegacyProduct(product));
  return wire;
}
