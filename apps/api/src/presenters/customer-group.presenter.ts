import { CustomerGroup } from '@brand/core';
import { Static, Type, component, dateTime, integer, string } from '../http/wire-schema';

export const CustomerGroupSchema = component(
  'CustomerGroup',
  Type.Object({ id: integer(), code: string(), name: string(), created_at: dateTime(), updated_at: dateTime() }),
);
export type CustomerGroupWire = Static<typeof CustomerGroupSchema>;

export function presentCustomerGroup(group: CustomerGroup): CustomerGroupWire {
  return { id: group.id, code: group.code, name: group.name, created_at: group.createdAt, updated_at: group.updatedAt };
}
