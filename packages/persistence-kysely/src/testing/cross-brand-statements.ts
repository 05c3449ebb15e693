/**
 * The reviewed statements that touch tenant tables without naming one brand, each with why it
 * may (DESIGN §9: "work that spans brands by design runs brand by brand or is named in one
 * reviewed list"). `statement-brand-check.test.ts` fails on any other such statement of the
 * Postgres test run; docs/decisions/cross-brand-statements.md explains every entry.
 *
 * Matched against a statement's shape (`statementShape`: whitespace folded, every parameter `?`,
 * parameter lists and repeated VALUES rows folded). Keep each pattern as narrow as its statement
 * (anchored at both ends), so a new statement never rides on an old entry.
 */
export interface ReviewedStatement {
  /** The statement's shape. */
  shape: RegExp;
  /** Where it is sent from, and why it spans brands. */
  why: string;
}

/** Empty: the work that spans brands goes brand by brand (see the docs). */
export const CROSS_BRAND_STATEMENTS: readonly ReviewedStatement[] = [];
