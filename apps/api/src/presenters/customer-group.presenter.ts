import { CustomerGroup } from '@brand/core';

export interface CustomerGroupWire {
  id: number;
  code: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export function presentCustomerGroup(group: CustomerGroup): CustomerGroupWire {
  return { id: group.id, code: group.code, name: group.name, created_at: group.createdAt, updated_at: group.updatedAt };
}
