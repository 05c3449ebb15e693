import { ExportScope } from '../documents/document.entities';
import { ListQuery, ListRows } from '../listing/list-query';
import { Alert, ClaimCause, Return, ReturnPortal } from './return.entities';

/**
 * Returns as aggregates with their lines. Unlike the other documents, `save` makes the stored
 * lines exactly the aggregate's: lines missing from it are deleted (a portal upsert sends the full
 * desired set). Reads inside a Postgres write transaction lock the returns they return.
 * A return's (portal, rma) is unique: saving a second return with a taken one is a unique
 * violation, which the unit of work retries (so 20 identical concurrent upserts make one return).
 */
export interface ReturnRepository {
  save(ret: Return): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<Return[]>;
  /** Returns of the brand with this rma (any portal or none), by id. */
  findByRma(brandId: number, rma: string): Promise<Return[]>;
  findByPortalRma(brandId: number, returnPortalId: number, rma: string): Promise<Return | null>;
  findByOrderIds(brandId: number, orderIds: number[]): Promise<Return[]>;
  /** `GET /v10/returns`, `GET /3pl/returns`; lines always loaded. */
  list(brandId: number, query: ListQuery): Promise<ListRows<Return>>;
  listForExport(brandId: number, query: ListQuery, scope: ExportScope): Promise<ListRows<Return>>;
}

/** A brand's claim causes, by id or by code (ignoring case). */
export interface ClaimCauseRepository {
  insert(cause: ClaimCause): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<ClaimCause[]>;
  /** Causes whose code equals one of `codes` ignoring case. */
  findByCodes(brandId: number, codes: string[]): Promise<ClaimCause[]>;
  list(brandId: number, query: ListQuery): Promise<ListRows<ClaimCause>>;
}

/** Return portals, by public id (across brands) or by id. */
export interface ReturnPortalRepository {
  insert(portal: ReturnPortal): Promise<void>;
  /** A portal by public id across brands: the route tells a foreign portal (404) from its own. */
  findByPublicIdAnyBrand(publicId: string): Promise<ReturnPortal | null>;
  findByIds(brandId: number, ids: number[]): Promise<ReturnPortal[]>;
  list(brandId: number, query: ListQuery): Promise<ListRows<ReturnPortal>>;
}

/** Dashboard alerts for staff. */
export interface AlertRepository {
  save(alert: Alert): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<Alert[]>;
  list(brandId: number, query: ListQuery): Promise<ListRows<Alert>>;
}

/** The returns module's repositories; the declaration below adds them to `Repositories`. */
export interface ReturnRepositories {
  returns: ReturnRepository;
  claimCauses: ClaimCauseRepository;
  returnPortals: ReturnPortalRepository;
  alerts: AlertRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends ReturnRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The returns module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    returns: true;
    return_lines: true;
    claim_causes: true;
    return_portals: true;
    alerts: true;
  }
}
