import { COLLECTION_VISIBILITIES, Collection, CollectionVisibility } from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  boolean,
  component,
  dateTime,
  integer,
  oneOfValues,
  string,
} from '../../http/wire-schema';

/** A collection of the older interface. */
export const LegacyCollectionSchema = component(
  'LegacyCollectionObject',
  Type.Object({
    id: integer(),
    brand_id: integer(),
    active: boolean(),
    title: string(),
    visibility: oneOfValues(COLLECTION_VISIBILITIES),
    allowed_customers: arrayOf(integer(), 'Customer ids; used when visibility is customers_custom'),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);
export type LegacyCollectionWire = Static<typeof LegacyCollectionSchema>;

/**
 * The entity keeps the visibility as a plain string, but `createCollection`, its only writer,
 * accepts nothing outside `COLLECTION_VISIBILITIES`: another value is a broken row, not an answer.
 */
function visibilityOf(collection: Collection): CollectionVisibility {
  const visibility = COLLECTION_VISIBILITIES.find((known) => known === collection.visibility);
  if (visibility === undefined)
    throw new Error(`collection ${collection.id} has the unknown visibility ${collection.visibility}`);
  return visibility;
}

export function presentLegacyCollection(collection: Collection): LegacyCollectionWire {
  return {
    id: collection.id,
    brand_id: collection.brandId,
    active: collection.active,
    title: collection.title,
    visibility: visibilityOf(collection),
    allowed_customers: [...collection.allowedCustomerIds],
    created_at: collection.createdAt,
    updated_at: collection.updatedAt,
  };
}
