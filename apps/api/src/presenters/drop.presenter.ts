import { Drop } from '@brand/core';

export interface DropWire {
  id: number;
  code: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export function presentDrop(drop: Drop): DropWire {
  return { id: drop.id, code: drop.code, name: drop.name, created_at: drop.createdAt, updated_at: drop.updatedAt };
}
