import { InventoryLocation } from '@brand/core';
import { Static, Type, boolean, component, dateTime, integer, string } from '../http/wire-schema';

export const InventoryLocationSchema = component(
  'InventoryLocation',
  Type.Object({
    id: integer(),
    name: string(),
    is_default: boolean('Where stock goes when no location is named; one per brand'),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);
export type InventoryLocationWire = Static<typeof InventoryLocationSchema>;

export function presentInventoryLocation(location: InventoryLocation): InventoryLocationWire {
  return {
    id: location.id,
    name: location.name,
    is_default: location.isDefault,
    created_at: location.createdAt,
    updated_at: location.updatedAt,
  };
}
