import { Dialect } from '../storage';

/** Column types that differ by dialect; everything else is plain `text` / `integer`. */
export function columnTypes(dialect: Dialect) {
  return {
    /** Ids and amounts: 64-bit on Postgres (read back as JS numbers), INTEGER is already 64-bit on SQLite. */
    bigint: dialect === 'postgres' ? ('bigint' as const) : ('integer' as const),
  };
}
