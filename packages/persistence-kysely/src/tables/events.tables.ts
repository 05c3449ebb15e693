/**
 * The outbox and events feed. `object` is the resource as it stood when the event was written,
 * JSON text in both dialects (the entity of the core, presented by the API when read). Keyed by
 * (brand_id, id), as every table created from now on (DESIGN §9: tenant-shardable).
 */
export interface EventsTable {
  brand_id: number;
  id: number;
  type: string;
  object: string;
  created_at: string;
}

declare module '../database' {
  interface Database {
    events: EventsTable;
  }
}
