import { Clock } from '@brand/core';

/**
 * What the events feed shows for these rows of `GET /v10/inventory-available`: one
 * `inventory.changed` per row, in this order, at the clock's instant.
 */
export function announcingInventory(clock: Clock, rows: Record<string, unknown>[]) {
  return rows.map((object) => ({
    id: expect.stringMatching(/^evt_\d+$/),
    type: 'inventory.changed',
    created_at: clock.now(),
    data: { object },
  }));
}
