/**
 * The tables whose integer ids come from the id generator, as keys (the values mean nothing).
 * Empty here: each module names its tables in its ports file by declaration merging
 * (`interface EntityKinds { customers: true; … }`), next to the repositories that store them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the modules' ports files fill it by declaration merging
export interface EntityKinds {}

/** Tables whose integer ids come from the id generator. */
export type EntityKind = keyof EntityKinds;

/**
 * Integer ids are handed out by the storage adapter inside the transaction (a Postgres sequence,
 * a counter row on SQLite), never by column defaults, so every dialect numbers alike.
 * @example const [id] = await tx.ids.next('customers');
 */
export interface IdGenerator {
  /** Returns `count` (default 1) fresh, strictly increasing ids for `kind`. */
  next(kind: EntityKind, count?: number): Promise<number[]>;
}

/** Per-brand document number series (order, shipment, invoice, credit note, RMA, production order, delivery note). */
export type DocumentKind =
  | 'order'
  | 'shipment'
  | 'invoice'
  | 'credit_note'
  | 'return'
  | 'production_order'
  | 'delivery_note'
  | 'accounting_entry';

/**
 * Gap-free per-brand document numbers. The adapter locks the brand's counter row for the rest of
 * the transaction, so concurrent transactions (or processes) never draw the same number and a
 * rolled-back transaction gives its number back.
 * @example const orderNumber = await tx.documentNumbers.next(brandId, 'order'); // 1001
 */
export interface DocumentNumberSequence {
  next(brandId: number, kind: DocumentKind): Promise<number>;
}

/** The sequences every module draws from; the declaration below adds them to `Repositories`. */
export interface SequenceRepositories {
  ids: IdGenerator;
  documentNumbers: DocumentNumberSequence;
}

declare module './unit-of-work.ports' {
  interface Repositories extends SequenceRepositories {}
}
