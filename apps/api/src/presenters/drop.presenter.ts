import { Drop } from '@brand/core';
import { Static, Type, component, dateTime, integer, string } from '../http/wire-schema';

export const DropSchema = component(
  'Drop',
  Type.Object({
    id: integer(),
    code: string(),
    name: string(),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);
export type DropWire = Static<typeof DropSchema>;

export function presentDrop(drop: Drop): DropWire {
  return { id: drop.id, code: drop.code, name: drop.name, created_at: drop.createdAt, updated_at: drop.updatedAt };
}
