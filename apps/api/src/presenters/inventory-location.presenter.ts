import { InventoryLocation } from '@brand/core';

export interface InventoryLocationWire {
  id: number;
  name: string;
  /** Where stock goes when no location is named; exactly one location of a brand is default. */
  is_default: boolean;
  created_at: string;
  updated_at: string;
}

export function presentInventoryLocation(location: InventoryLocation): InventoryLocationWire {
  return {
    id: location.id,
    name: location.name,
    is_default: location.isDefault,
    created_at: location.createdAt,
    updated_at: location.updatedAt,
  };
}
