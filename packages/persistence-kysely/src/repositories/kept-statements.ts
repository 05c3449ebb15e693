import { Compilable, Kysely } from 'kysely';
import { Database } from '../database';
import { Slots, StatementTemplate } from '../listing/slots';
import { prepareOnPostgres } from '../prepared-statements';
import { Dialect } from '../storage';
import { execute, Executor } from './executor';

/**
 * A statement written once, at module level, as a function of placeholders for its values. It
 * receives the values as slots (typed `never`, so they fit wherever the query builder takes a
 * value, and cannot be inspected): its SQL may depend on the executor (dialect, transaction or
 * not) and on how many values it gets, never on what they are.
 */
export type KeptStatement<O> = (db: Kysely<Database>, values: Placeholders, dialect: Dialect) => Compilable<O>;

/** The values' placeholders, destructured by position (a tuple, so the first few are never `undefined` to the type checker). */
type Placeholders = readonly [never, never, never, never, ...never[]];

/** Statements with more values than this are compiled each time (large, rare, and many sizes). */
const MAX_KEPT_VALUES = 100;

const templates = new WeakMap<KeptStatement<unknown>, Map<number, StatementTemplate>>();

/** A template's key among one statement's: values, dialect and transaction folded into a number, so a lookup makes no string. */
const shapeKey = (valueCount: number, dialect: Dialect, inTransaction: boolean): number =>
  valueCount * 4 + (dialect === 'postgres' ? 2 : 0) + (inTransaction ? 1 : 0);

/** The statement compiled with a slot for each value: slot i stands for `values[i]`, so it is filled by position. */
function compiled<O>(
  { db, dialect }: Executor,
  statement: KeptStatement<O>,
  values: readonly unknown[],
): StatementTemplate {
  const slots = new Slots();
  const placeholders = values.map((value) => slots.bind(value)) as unknown as Placeholders;
  return Slots.template(statement(db, placeholders, dialect).compile());
}

/**
 * Runs `statement` with `values`, compiling it once per executor kind (dialect, in a transaction
 * or not) and number of values, and filling in the values on every later run.
 *
 * Why: building and compiling a query through the query builder costs more than SQLite takes to
 * run it (placing an order builds about a dozen such reads), and SQLite's statement
 * cache (connection.ts) hashes every newly made SQL text to find its prepared statement, while a
 * kept text is found by reference. A kept run allocates only the statement's parameters.
 */
export async function runKept<O>(
  executor: Executor,
  statement: KeptStatement<O>,
  values: readonly unknown[],
): Promise<O[]> {
  const { db, dialect } = executor;
  if (values.length > MAX_KEPT_VALUES)
    return (await execute(executor, Slots.filled(compiled(executor, statement, values), values))).rows as O[];
  let kept = templates.get(statement);
  if (!kept) {
    kept = new Map();
    templates.set(statement, kept);
  }
  const shape = shapeKey(values.length, dialect, db.isTransaction);
  let template = kept.get(shape);
  if (!template) {
    template = compiled(executor, statement, values);
    if (dialect === 'postgres') prepareOnPostgres(template.compiled.sql);
    kept.set(shape, template);
  }
  return (await execute(executor, Slots.filled(template, values))).rows as O[];
}
