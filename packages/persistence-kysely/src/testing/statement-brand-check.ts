import { loadModule, parseSync } from 'libpg-query';

/**
 * Whether a SQL statement touches one brand only (DESIGN §9, "one brand per statement"), read from
 * PostgreSQL's own parse tree (libpg-query), so no spelling of a statement escapes it.
 *
 * A tenant table named in a statement is constrained when a top-level AND term of its WHERE or
 * JOIN condition says `<it>.brand_id = <a parameter or constant>` (or `brand_id in (<one value>)`),
 * or `<it>.brand_id = <other>.brand_id` (or `join … using (brand_id, …)`) where the other is
 * constrained, at its own level or in an enclosing query (a correlated subquery). An unqualified
 * `brand_id` counts when the level names one tenant table (Kysely leaves single-table queries
 * unqualified). An INSERT … VALUES names brand_id among its columns (each row carries its brand;
 * the repositories write one brand per statement); an INSERT … SELECT must have its SELECT
 * constrained; an ON CONFLICT target names brand_id. Subqueries, CTEs and set operations are
 * checked on their own. Statements that name no tenant table (transaction control, `set_config`, `SET LOCAL`,
 * advisory locks, DDL, global tables) pass.
 *
 * What it cannot see: whether the parameter bound to `brand_id = $1` is the request's brand, and
 * whether one statement's rows all come from the one brand its VALUES name. Row-level security
 * and the composite foreign keys keep those.
 */

type Node = Record<string, unknown>;

/** One finding: a tenant table of a statement that no brand constrains, and in which clause. */
export interface Unconstrained {
  table: string;
  why: string;
}

let loaded: Promise<void> | undefined;
/** The parser is WebAssembly: loaded once before the first check. */
export const loadStatementParser = (): Promise<void> => (loaded ??= loadModule());

const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null;
const field = (node: unknown, key: string): unknown => (isObject(node) ? node[key] : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const stringValue = (node: unknown): unknown => field(field(node, 'String'), 'sval');

/** `a.b.c` of a ColumnRef, or null for anything else. */
function columnPath(node: unknown): string[] | null {
  const ref = field(node, 'ColumnRef');
  if (!ref) return null;
  const path = list(field(ref, 'fields')).map(stringValue);
  return path.every((p): p is string => typeof p === 'string') ? path : null;
}

/** A parameter or a constant, possibly cast: one value, the same for every row. */
const isValue = (node: unknown): boolean =>
  isObject(node) &&
  ('ParamRef' in node || 'A_Const' in node || ('TypeCast' in node && isValue(field(field(node, 'TypeCast'), 'arg'))));

/** The top-level AND terms of a condition. */
function conjuncts(condition: unknown): unknown[] {
  const bool = field(condition, 'BoolExpr');
  if (bool && field(bool, 'boolop') === 'AND_EXPR') return list(field(bool, 'args')).flatMap(conjuncts);
  return condition === undefined || condition === null ? [] : [condition];
}

/** One query level: its tables, and what its conditions say about their brands. */
interface Scope {
  /** Tenant tables of this level by the name they are referred to by (alias or table name). */
  tenants: Map<string, string>;
  /** Names (of this level and enclosing ones) known to be constrained to one brand. */
  constrained: Set<string>;
  /** Conjuncts of the level's WHERE and JOIN conditions. */
  conditions: unknown[];
  /** `brand_id = brand_id` pairs from `join … using (brand_id)`: names of the two sides. */
  usingPairs: [string[], string[]][];
  /** FROM-list subqueries, checked once the level's own constraints are known (LATERAL ones see them). */
  subqueries: { query: unknown; lateral: boolean }[];
  /** Condition trees whose subqueries are checked against the level (JOIN … ON). */
  joinConditions: unknown[];
}

const newScope = (): Scope => ({
  tenants: new Map(),
  constrained: new Set(),
  conditions: [],
  usingPairs: [],
  subqueries: [],
  joinConditions: [],
});

/** What `brand_id = …` terms say about this level's tables, applied until nothing changes. */
function constrain(scope: Scope, outer: ReadonlySet<string>): void {
  const tableOfBrandColumn = (path: string[] | null): string | null => {
    if (!path || path[path.length - 1] !== 'brand_id') return null;
    if (path.length >= 2) return path[path.length - 2]!;
    return scope.tenants.size === 1 ? [...scope.tenants.keys()][0]! : null;
  };
  const pairs: [string, string][] = [];
  for (const term of scope.conditions) {
    const expr = field(term, 'A_Expr');
    if (!expr || stringValue(list(field(expr, 'name'))[0]) !== '=') continue;
    const kind = field(expr, 'kind');
    const left = field(expr, 'lexpr');
    const right = field(expr, 'rexpr');
    if (kind === 'AEXPR_IN') {
      // `brand_id in ($1)` is one brand; a list of several is not.
      const items = list(field(field(right, 'List'), 'items'));
      const table = tableOfBrandColumn(columnPath(left));
      if (table && items.length === 1 && isValue(items[0])) scope.constrained.add(table);
      continue;
    }
    // `= any($1)` is AEXPR_OP_ANY: several brands, never a constraint.
    if (kind !== 'AEXPR_OP') continue;
    const l = tableOfBrandColumn(columnPath(left));
    const r = tableOfBrandColumn(columnPath(right));
    if (l && isValue(right)) scope.constrained.add(l);
    else if (r && isValue(left)) scope.constrained.add(r);
    else if (l && r) pairs.push([l, r]);
  }
  for (const [leftNames, rightNames] of scope.usingPairs)
    for (const a of leftNames) for (const b of rightNames) pairs.push([a, b]);
  // An enclosing query's constrained tables, unless a table of this level shadows the name.
  for (const name of outer) if (!scope.tenants.has(name)) scope.constrained.add(name);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [a, b] of pairs) {
      if (scope.constrained.has(a) !== scope.constrained.has(b)) {
        scope.constrained.add(a);
        scope.constrained.add(b);
        changed = true;
      }
    }
  }
}

/** The parts of a SELECT whose subqueries see the level's tables (everything but FROM, WITH, set operands). */
const SELECT_EXPRESSIONS = [
  'targetList',
  'whereClause',
  'havingClause',
  'groupClause',
  'sortClause',
  'distinctClause',
  'limitCount',
  'limitOffset',
] as const;

class Checker {
  readonly findings: Unconstrained[] = [];
  constructor(private readonly tenantTables: ReadonlySet<string>) {}

  private isTenant(name: unknown, ctes: ReadonlySet<string>): name is string {
    return typeof name === 'string' && this.tenantTables.has(name) && !ctes.has(name);
  }

  /** Adds a FROM item's tables and join conditions to the scope; returns the names it brings in. */
  private collectFrom(item: unknown, scope: Scope, ctes: ReadonlySet<string>): string[] {
    const range = field(item, 'RangeVar');
    if (range) {
      const name = field(range, 'relname');
      const alias = field(field(range, 'alias'), 'aliasname');
      const referredAs = typeof alias === 'string' ? alias : (name as string);
      if (this.isTenant(name, ctes)) scope.tenants.set(referredAs, name);
      return [referredAs];
    }
    const join = field(item, 'JoinExpr');
    if (join) {
      const left = this.collectFrom(field(join, 'larg'), scope, ctes);
      const right = this.collectFrom(field(join, 'rarg'), scope, ctes);
      scope.conditions.push(...conjuncts(field(join, 'quals')));
      scope.joinConditions.push(field(join, 'quals'));
      if (list(field(join, 'usingClause')).some((c) => stringValue(c) === 'brand_id'))
        scope.usingPairs.push([left, right]);
      return [...left, ...right];
    }
    const subselect = field(item, 'RangeSubselect');
    if (subselect) {
      scope.subqueries.push({ query: field(subselect, 'subquery'), lateral: field(subselect, 'lateral') === true });
      const alias = field(field(subselect, 'alias'), 'aliasname');
      return typeof alias === 'string' ? [alias] : [];
    }
    // Functions (unnest($1)), VALUES lists and the like name no table; their subqueries see none.
    this.sublinks(item, new Set(), ctes);
    return [];
  }

  /** Every subquery inside an expression tree, checked with `outer` as its enclosing constrained names. */
  private sublinks(node: unknown, outer: ReadonlySet<string>, ctes: ReadonlySet<string>): void {
    if (Array.isArray(node)) {
      for (const item of node) this.sublinks(item, outer, ctes);
      return;
    }
    if (!isObject(node)) return;
    const sublink = field(node, 'SubLink');
    if (sublink) {
      this.statement(field(sublink, 'subselect'), outer, ctes);
      this.sublinks(field(sublink, 'testexpr'), outer, ctes);
      return;
    }
    for (const value of Object.values(node)) this.sublinks(value, outer, ctes);
  }

  /** Settles a level: applies its constraints, reports what stays unconstrained, checks its subqueries. */
  private settle(
    scope: Scope,
    outer: ReadonlySet<string>,
    ctes: ReadonlySet<string>,
    why: string,
    expressions: unknown[],
  ): Set<string> {
    constrain(scope, outer);
    for (const [name, table] of scope.tenants) if (!scope.constrained.has(name)) this.findings.push({ table, why });
    const visible = new Set([...scope.constrained, ...outer]);
    for (const { query, lateral } of scope.subqueries) this.statement(query, lateral ? visible : new Set(), ctes);
    this.sublinks([...expressions, ...scope.joinConditions], visible, ctes);
    return visible;
  }

  /** Checks the CTEs of a WITH clause; returns the names they bring in (which shadow tables). */
  private withClause(node: unknown, ctes: ReadonlySet<string>): Set<string> {
    const names = new Set(ctes);
    const recursive = field(field(node, 'withClause'), 'recursive') === true;
    for (const cte of list(field(field(node, 'withClause'), 'ctes'))) {
      const common = field(cte, 'CommonTableExpr');
      const name = field(common, 'ctename') as string;
      if (recursive) names.add(name);
      this.statement(field(common, 'ctequery'), new Set(), names);
      names.add(name);
    }
    return names;
  }

  private select(select: Node, outer: ReadonlySet<string>, ctes: ReadonlySet<string>): void {
    const names = this.withClause(select, ctes);
    const op = field(select, 'op');
    if (op !== undefined && op !== 'SETOP_NONE') {
      // UNION, INTERSECT, EXCEPT: each operand on its own.
      this.select(field(select, 'larg') as Node, outer, names);
      this.select(field(select, 'rarg') as Node, outer, names);
      return;
    }
    const scope = newScope();
    for (const item of list(field(select, 'fromClause'))) this.collectFrom(item, scope, names);
    scope.conditions.push(...conjuncts(field(select, 'whereClause')));
    // A VALUES list's subqueries see nothing of this level.
    this.sublinks(field(select, 'valuesLists'), new Set(), names);
    this.settle(
      scope,
      outer,
      names,
      'read without a brand',
      SELECT_EXPRESSIONS.map((key) => field(select, key)),
    );
  }

  private insert(insert: Node, outer: ReadonlySet<string>, ctes: ReadonlySet<string>): void {
    const names = this.withClause(insert, ctes);
    const relation = field(insert, 'relation');
    const table = field(relation, 'relname');
    const alias = field(field(relation, 'alias'), 'aliasname');
    const source = field(field(insert, 'selectStmt'), 'SelectStmt') as Node | undefined;
    const columns = list(field(insert, 'cols')).map((c) => field(field(c, 'ResTarget'), 'name'));
    let rowsHaveOneBrand = false;
    if (source) {
      const before = this.findings.length;
      this.select(source, outer, names);
      // VALUES rows name their brand; the rows of a SELECT come from one brand if it read one.
      rowsHaveOneBrand = this.findings.length === before;
    }
    if (this.isTenant(table, names)) {
      // (An INSERT … SELECT that reads several brands was reported by its SELECT above.)
      if (!columns.includes('brand_id')) {
        this.findings.push({ table, why: 'insert without brand_id' });
        rowsHaveOneBrand = false;
      }
      const conflict = field(insert, 'onConflictClause');
      const targets = list(field(field(conflict, 'infer'), 'indexElems')).map((e) =>
        field(field(e, 'IndexElem'), 'name'),
      );
      if (targets.length > 0 && !targets.includes('brand_id'))
        this.findings.push({ table, why: `on conflict (${targets.join(', ')}) without brand_id` });
    }
    // The inserted row (and EXCLUDED, the row that conflicted) is of the statement's brand, for
    // the subqueries of ON CONFLICT … DO UPDATE and RETURNING that join on it.
    const visible = new Set(outer);
    if (rowsHaveOneBrand && typeof table === 'string') {
      visible.add(typeof alias === 'string' ? alias : table);
      visible.add('excluded');
    }
    const conflict = field(insert, 'onConflictClause');
    this.sublinks(
      [field(conflict, 'targetList'), field(conflict, 'whereClause'), field(insert, 'returningList')],
      visible,
      names,
    );
  }

  private write(write: Node, kind: 'update' | 'delete', outer: ReadonlySet<string>, ctes: ReadonlySet<string>): void {
    const names = this.withClause(write, ctes);
    const scope = newScope();
    this.collectFrom({ RangeVar: field(write, 'relation') }, scope, names);
    for (const item of list(field(write, kind === 'update' ? 'fromClause' : 'usingClause')))
      this.collectFrom(item, scope, names);
    scope.conditions.push(...conjuncts(field(write, 'whereClause')));
    this.settle(scope, outer, names, `${kind} without a brand`, [
      field(write, 'whereClause'),
      field(write, 'targetList'),
      field(write, 'returningList'),
    ]);
  }

  /** Checks one statement node; kinds that read or write no rows (DDL, SET, BEGIN, …) pass. */
  statement(node: unknown, outer: ReadonlySet<string>, ctes: ReadonlySet<string>): void {
    const select = field(node, 'SelectStmt');
    if (isObject(select)) return this.select(select, outer, ctes);
    const insert = field(node, 'InsertStmt');
    if (isObject(insert)) return this.insert(insert, outer, ctes);
    const update = field(node, 'UpdateStmt');
    if (isObject(update)) return this.write(update, 'update', outer, ctes);
    const remove = field(node, 'DeleteStmt');
    if (isObject(remove)) return this.write(remove, 'delete', outer, ctes);
    // EXPLAIN plans the statement it names: checked as that statement.
    const explain = field(node, 'ExplainStmt');
    if (explain) return this.statement(field(explain, 'query'), outer, ctes);
  }
}

/**
 * The tenant tables `sql` touches without constraining them to one brand (empty: single-brand, or
 * no tenant table at all). Call `loadStatementParser()` once first.
 */
export function unconstrainedTenantTables(sql: string, tenantTables: ReadonlySet<string>): Unconstrained[] {
  let tree: { stmts?: { stmt: unknown }[] };
  try {
    tree = parseSync(sql) as typeof tree;
  } catch (error) {
    return [{ table: '?', why: `not parsed: ${error instanceof Error ? error.message : String(error)}` }];
  }
  const checker = new Checker(tenantTables);
  for (const { stmt } of tree.stmts ?? []) checker.statement(stmt, new Set(), new Set());
  return checker.findings;
}

/**
 * A statement's shape, for reports and the reviewed list: whitespace folded, every parameter `?`,
 * a list of parameters one `?, …`, and repeated VALUES rows one row.
 */
export const statementShape = (sql: string): string =>
  sql
    .replace(/\s+/g, ' ')
    .replace(/\$\d+/g, '?')
    .replace(/\?(?:, ?\?)+/g, '?, …')
    .replace(/\((\?|\?, …)\)(?:, \((?:\?|\?, …)\))+/g, '($1), …')
    .trim();
