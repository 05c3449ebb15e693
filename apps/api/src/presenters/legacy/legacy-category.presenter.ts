import { Category, LegacyCategoryRelations } from '@brand/core';
import { Static, Type, arrayOf, component, componentNamed, optional } from '../../http/wire-schema';
import {
  LegacyProductCategorySchema,
  LegacyProductCategoryWire,
  LegacyProductSchema,
  presentLegacyProduct,
} from './legacy-product.presenter';

/** A category of the older interface. */
export const LegacyCategorySchema = component(
  'LegacyCategory',
  Type.Object({
    ...LegacyProductCategorySchema.properties,
    // A category's children carry no includes of their own.
    children: optional(
      arrayOf(componentNamed<LegacyProductCategoryWire>('LegacyCategory'), 'With includes[]=children'),
    ),
    products: optional(arrayOf(LegacyProductSchema, 'With includes[]=products')),
  }),
);
export type LegacyCategoryWire = Static<typeof LegacyCategorySchema>;

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
