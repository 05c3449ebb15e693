import BetterSqlite3 from 'better-sqlite3';

export type Sqlite = BetterSqlite3.Database;
export type Statement<P extends unknown[], R> = BetterSqlite3.Statement<P, R>;

/**
 * Opens the project's migrated SQLite database with the pragmas its connection sets
 * (packages/persistence-kysely/src/connection.ts), so both servers run on the same storage
 * settings. The baseline never migrates: the project's migration made the schema.
 */
export function openDatabase(databaseUrl: string): Sqlite {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error('the baseline runs on SQLite only');
  const location = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : databaseUrl;
  const db = new BetterSqlite3(location, { fileMustExist: true });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 10000');
  return db;
}

/** Draws `count` consecutive ids of a kind from `id_counters`, as the project's SQLite id generator does. */
export function idCounter(db: Sqlite): (kind: string, count: number) => number[] {
  const advance = db
    .prepare<[string, number], number>(
      'insert into id_counters (kind, value) values (?, ?) ' +
        'on conflict (kind) do update set value = id_counters.value + excluded.value returning value',
    )
    .pluck();
  return (kind, count) => {
    const last = Number(advance.get(kind, count));
    return Array.from({ length: count }, (_, i) => last - count + 1 + i);
  };
}
