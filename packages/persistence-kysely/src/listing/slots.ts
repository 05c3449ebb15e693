import { CompiledQuery } from 'kysely';

/** A bound value's place in a statement: what a query is built with instead of the value itself. */
class Slot {
  constructor(readonly index: number) {}
}

/** A compiled statement without its values: each parameter is a slot's index or a constant of the statement. */
export interface StatementTemplate {
  readonly compiled: CompiledQuery;
  readonly parameters: readonly (number | { readonly constant: unknown })[];
}

/** Where a statement builder puts each value it binds. */
export interface Binder {
  bind<T>(value: T): T;
}

/** Binds values as themselves: for a statement built, compiled and run once. */
export const INLINE_VALUES: Binder = { bind: (value) => value };

/**
 * The values of one statement, bound as slots, so that the statement's SQL can be compiled once
 * for every query of the same shape and run again with other values. A query builder accepts a
 * slot wherever it accepts a value (Kysely keeps any value it is given as a parameter); the
 * builder's types say `number` or `string`, hence the casts at the call sites.
 */
export class Slots implements Binder {
  readonly values: unknown[] = [];

  /** Stands for `value` in a query being built. */
  readonly bind = <T>(value: T): T => {
    this.values.push(value);
    return new Slot(this.values.length - 1) as T;
  };

  /**
   * Records where each slot went in a statement compiled with them. Any other parameter is a
   * constant of the statement (a literal the builder code itself wrote, such as a resource name).
   */
  static template(compiled: CompiledQuery): StatementTemplate {
    return {
      compiled,
      parameters: compiled.parameters.map((parameter) =>
        parameter instanceof Slot ? parameter.index : { constant: parameter },
      ),
    };
  }

  /**
   * The template's statement with these values in its slots. It keeps the compiled query node and
   * query id of the first compilation: no plugin reads them, and drivers only run `sql`.
   */
  fill(template: StatementTemplate): CompiledQuery {
    return Slots.filled(template, this.values);
  }

  /** The template's statement with `values` in its slots, by the position they were bound in. */
  static filled(template: StatementTemplate, values: readonly unknown[]): CompiledQuery {
    const { compiled } = template;
    const parameters = template.parameters.map((p) => (typeof p === 'number' ? values[p] : p.constant));
    return { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters };
  }
}
