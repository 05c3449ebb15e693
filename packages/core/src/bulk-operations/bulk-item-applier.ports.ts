import { DomainError } from '../shared/errors';
import { BulkLineResult, BulkOperationType } from './bulk-operation.entities';

/** The repositories a transaction that announces events writes to (the outbox). */
export type AnnouncingRepositories = 'ids' | 'events' | 'webhookEndpoints' | 'webhookDeliveries' | 'transaction';

/** The error objects of a failed line, as the API answers them (opaque to the core). */
export type BulkLineErrors = Extract<BulkLineResult, { status: 'failed' }>['errors'];

/**
 * How one type of bulk operation reads and applies its lines: the wire shape of an item belongs
 * to the API, the rules to the sync use case, so both come from there (one rule set for the sync
 * endpoint and its bulk operation, never two).
 *
 * @example
 * const customers: BulkItemApplier<CustomerSyncItem> = {
 *   parse: async (text) => ({ item: toCustomerSyncItem(await validateBody(CustomerSyncItemDto, JSON.parse(text))) }),
 *   apply: async ({ brandId, items }) => (await syncCustomers(deps, { brandId, customers: items })).map((o) => o.id),
 *   describe: (refusal) => toErrorResponse(refusal).errors,
 * };
 */
export interface BulkItemApplier<I = unknown> {
  /** Reads one line into the sync's item, checked as the sync endpoint checks a request's item; or the line's errors. */
  parse(text: string): Promise<{ item: I } | { errors: BulkLineErrors }>;
  /**
   * Applies the items with the sync use case, whose transaction joins the chunk's; answers the id
   * of each item in order. A refusal is the sync's own, naming items by their index in `items`
   * (`/customers/3/name`): the runner then fails those lines and applies the others.
   */
  apply(input: { brandId: number; userId: number | null; items: I[] }): Promise<(number | null)[]>;
  /** The error objects of a refusal of one item (pointers already relative to the item). */
  describe(refusal: DomainError): BulkLineErrors;
}

/** The appliers of every type of operation. */
export type BulkItemAppliers = Record<BulkOperationType, BulkItemApplier>;
