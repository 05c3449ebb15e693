import { Collection } from '@brand/core';

/** A collection of the older interface. */
export interface LegacyCollectionWire {
  id: number;
  brand_id: number;
  active: boolean;
  title: string;
  visibility: string;
  allowed_customers: number[];
  created_at: string;
  updated_at: string;
}

export function presentLegacyCollection(collection: Collection): LegacyCollectionWire {
  return {
    id: collection.id,
    brand_id: collection.brandId,
    active: collection.active,
    title: collection.title,
    visibility: collection.visibility,
    allowed_customers: [...collection.allowedCustomerIds],
    created_at: collection.createdAt,
    updated_at: collection.updatedAt,
  };
}
