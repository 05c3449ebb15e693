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

/**
 * A brand's feed: on Postgres the row whose lock orders the brand's event ids by commit
 * (migration 0016); on both dialects the count of the brand's events now stored, the events
 * list's total (migration 0023).
 */
export interface EventFeedsTable {
  brand_id: number;
  events_written: number;
  events_stored: number;
}

declare module '../database' {
  interface Database {
    events: EventsTable;
    event_feeds: EventFeedsTable;
  }
}
