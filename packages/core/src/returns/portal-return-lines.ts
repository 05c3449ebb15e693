import { VariantRef } from '../catalog/catalog.ports';
import { Order } from '../orders/order.entities';
import { divideRounded } from '../shared/money';
import { ViolationList } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { feeInReturnBasis } from './issue-return-credit-note';
import { checkClaimType, resolveClaimCauseCodes } from './return-line-builders';
import { ClaimType, Return, ReturnLine, ReturnPortal } from './return.entities';
import { settleAll } from '../shared/settle-all';

/**
 * The lines of a portal upsert: each names one variant of the brand (by id, SKU or EAN) and says
 * what the customer sends back and paid for it. The body carries the full desired set, matched
 * to the stored lines by the spec's three levels.
 */
export interface PortalReturnLineInput {
  variantId?: number;
  sku?: string;
  ean?: string;
  quantity: number;
  claimType: string;
  claimCauseId?: number | null;
  /** Matched ignoring case; unknown, or shared by several causes, is a 422. */
  claimCauseCode?: string | null;
  /** Minor units incl. VAT: what the customer paid per piece on the original order. */
  unitPriceInclVat: number;
  /** The customer's comment. */
  text?: string | null;
  /** Default true: received pieces of claim type `return` go back in stock. */
  regulateInventory?: boolean;
}

/** A request line resolved and checked: what the stored line must say. */
export interface DesiredPortalLine {
  variant: VariantRef;
  expectedQuantity: number;
  claimType: ClaimType;
  claimCauseId: number | null;
  unitPriceInclVat: number;
  comments: string | null;
  regulateInventory: boolean;
}

/** A unit price incl. VAT without its VAT (half up to the minor unit): the portal return line's `net_price`. */
export function netOfVat(amountInclVat: number, vatRateBasisPoints: number): number {
  return divideRounded(BigInt(amountInclVat) * 10_000n, 10_000n + BigInt(vatRateBasisPoints));
}

const isWhole = (value: unknown, min: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min;

/**
 * Resolves every request line to exactly one variant of the brand and checks the rest of it,
 * reporting each problem under `pointer` (`/return/lines/2/sku`): no key, a key naming no variant
 * or several (an EAN shared by variants), keys naming different variants, a quantity that is not
 * a whole number above 0, a claim type other than `return`/`claim`, a claim cause of another
 * brand, a code unknown or shared by several causes, a cause missing on a portal requiring one,
 * and a negative or fractional unit price. Returns the lines in request order when all are valid.
 */
export async function resolvePortalLines(
  tx: Pick<Repositories, 'claimCauses' | 'products'>,
  input: { brandId: number; portal: ReturnPortal; lines: readonly PortalReturnLineInput[]; pointer: string },
  violations: ViolationList,
): Promise<DesiredPortalLine[]> {
  const { brandId, lines, pointer } = input;
  if (lines.length === 0) {
    violations.add(pointer, 'must contain at least one line');
    return [];
  }
  const ids = [...new Set(lines.flatMap((l) => (l.variantId !== undefined ? [l.variantId] : [])))];
  const skus = [...new Set(lines.flatMap((l) => (l.sku !== undefined ? [l.sku] : [])))];
  const eans = [...new Set(lines.flatMap((l) => (l.ean !== undefined ? [l.ean] : [])))];
  const causeIds = [...new Set(lines.flatMap((l) => (typeof l.claimCauseId === 'number' ? [l.claimCauseId] : [])))];
  const [byId, bySku, byEan, causesById] = await settleAll([
    ids.length ? tx.products.findVariantsByIds(brandId, ids) : Promise.resolve([]),
    skus.length ? tx.products.findVariantsBySkus(brandId, skus) : Promise.resolve([]),
    eans.length ? tx.products.findVariantsByEans(brandId, eans) : Promise.resolve([]),
    causeIds.length ? tx.claimCauses.findByIds(brandId, causeIds) : Promise.resolve([]),
  ]);
  const causeIdsByCode = await resolveClaimCauseCodes(
    tx,
    brandId,
    lines.map((l, i) => ({ claimCauseCode: l.claimCauseCode, pointer: `${pointer}/${i}/claim_cause_code` })),
    violations,
  );

  const desired: DesiredPortalLine[] = [];
  lines.forEach((line, i) => {
    const at = `${pointer}/${i}`;
    const variant = resolveVariant(line, at, { byId, bySku, byEan }, violations);
    if (!isWhole(line.quantity, 1)) violations.add(`${at}/quantity`, 'must be a whole number above 0');
    const claimTypeOk = checkClaimType(line.claimType, `${at}/claim_type`, violations);
    if (!isWhole(line.unitPriceInclVat, 0))
      violations.add(`${at}/unit_price_incl_vat`, 'must be an amount of at least 0 with at most 2 decimals');
    const causeId = resolveCause(
      line,
      at,
      causesById.map((c) => c.id),
      causeIdsByCode[i] ?? null,
      input.portal,
      violations,
    );
    if (variant && claimTypeOk && causeId !== undefined) {
      desired.push({
        variant,
        expectedQuantity: line.quantity,
        claimType: line.claimType as ClaimType,
        claimCauseId: causeId,
        unitPriceInclVat: line.unitPriceInclVat,
        comments: line.text ?? null,
        regulateInventory: line.regulateInventory ?? true,
      });
    }
  });
  return desired;
}

/** The one variant a line names; several keys are fine when they agree. */
function resolveVariant(
  line: PortalReturnLineInput,
  at: string,
  found: { byId: VariantRef[]; bySku: VariantRef[]; byEan: VariantRef[] },
  violations: ViolationList,
): VariantRef | null {
  const named: Array<{ field: string; matches: VariantRef[]; key: string }> = [];
  if (line.variantId !== undefined)
    named.push({
      field: 'variant_id',
      key: String(line.variantId),
      matches: found.byId.filter((v) => v.variant.id === line.variantId),
    });
  if (line.sku !== undefined)
    named.push({
      field: 'sku',
      key: JSON.stringify(line.sku),
      matches: found.bySku.filter((v) => v.variant.sku === line.sku),
    });
  if (line.ean !== undefined)
    named.push({
      field: 'ean',
      key: JSON.stringify(line.ean),
      matches: found.byEan.filter((v) => v.variant.ean === line.ean),
    });
  if (named.length === 0) {
    violations.add(`${at}/variant_id`, 'is required when neither sku nor ean is sent');
    return null;
  }
  let chosen: VariantRef | null = null;
  for (const { field, key, matches } of named) {
    if (matches.length === 0) {
      violations.add(`${at}/${field}`, `${key} is not a variant of this brand`);
      return null;
    }
    if (matches.length > 1) {
      violations.add(
        `${at}/${field}`,
        `${key} matches ${matches.length} variants (SKUs ${matches.map((m) => m.variant.sku).join(', ')}); name the variant by variant_id or sku`,
      );
      return null;
    }
    if (chosen && chosen.variant.id !== matches[0]!.variant.id) {
      violations.add(
        `${at}/${field}`,
        `${key} names variant ${matches[0]!.variant.id}, but the line's other keys name variant ${chosen.variant.id}`,
      );
      return null;
    }
    chosen = matches[0]!;
  }
  return chosen;
}

/** The line's claim cause id, null when none, undefined when refused (already reported). */
function resolveCause(
  line: PortalReturnLineInput,
  at: string,
  brandCauseIds: readonly number[],
  byCode: number | null,
  portal: ReturnPortal,
  violations: ViolationList,
): number | null | undefined {
  const hasId = line.claimCauseId !== undefined && line.claimCauseId !== null;
  const hasCode = line.claimCauseCode !== undefined && line.claimCauseCode !== null;
  if (hasId && !brandCauseIds.includes(line.claimCauseId!)) {
    violations.add(`${at}/claim_cause_id`, `${line.claimCauseId} is not a claim cause of this brand`);
    return undefined;
  }
  // An unknown or ambiguous code was reported by resolveClaimCauseCodes.
  if (hasCode && byCode === null) return undefined;
  if (hasId && hasCode && byCode !== line.claimCauseId) {
    violations.add(
      `${at}/claim_cause_code`,
      `${JSON.stringify(line.claimCauseCode)} is claim cause ${byCode}, not claim_cause_id ${line.claimCauseId}`,
    );
    return undefined;
  }
  const id = hasId ? line.claimCauseId! : byCode;
  if (id === null && portal.requiresClaimCauses) {
    violations.add(
      `${at}/claim_cause_id`,
      'is required: this return portal requires a claim cause on every line (send claim_cause_id or claim_cause_code)',
    );
    return undefined;
  }
  return id;
}

type Level = (stored: ReturnLine, wanted: DesiredPortalLine) => boolean;

/** (a) the same line as before in everything that identifies it; (b) the same variant. */
const MATCH_LEVELS: readonly Level[] = [
  (s, w) =>
    s.variantId === w.variant.variant.id &&
    s.claimType === w.claimType &&
    s.claimCauseId === w.claimCauseId &&
    s.comments === w.comments &&
    s.unitPriceInclVat === w.unitPriceInclVat,
  (s, w) => s.variantId === w.variant.variant.id,
];

/**
 * Pairs each desired line with the stored line it updates (null: a new line). Level by level over
 * all desired lines, each takes the first stored line not yet claimed that matches at that level;
 * so an exact match (level a) is never taken away by a looser one (level b) of an earlier line.
 * Stored lines left unclaimed are the ones to delete.
 */
export function matchPortalLines(
  stored: readonly ReturnLine[],
  desired: readonly DesiredPortalLine[],
): Array<ReturnLine | null> {
  const matched: Array<ReturnLine | null> = desired.map(() => null);
  const claimed = new Set<number>();
  for (const level of MATCH_LEVELS) {
    desired.forEach((wanted, i) => {
      if (matched[i]) return;
      const line = stored.find((s) => !claimed.has(s.id) && level(s, wanted));
      if (!line) return;
      claimed.add(line.id);
      matched[i] = line;
    });
  }
  return matched;
}

/**
 * The return's lines as the portal wants them: matched lines keep their id and what is attached
 * to them (order line, received pieces, catalog copies) and take the request's values; new lines
 * copy their order line when the variant is on the order (else the catalog) and get new ids.
 * Prices: the portal's `unit_price_incl_vat` in the return's VAT basis (as is for gross prices,
 * without VAT for net ones), no discount. Lines come back by id, as storage returns them.
 */
export async function buildPortalLines(
  tx: Pick<Repositories, 'ids' | 'products'>,
  input: {
    ret: Pick<Return, 'id' | 'brandId' | 'lines' | 'pricesIncludeVat' | 'vatRateBasisPoints'>;
    order: Order | null;
    desired: readonly DesiredPortalLine[];
  },
): Promise<ReturnLine[]> {
  const { ret, order, desired } = input;
  const matched = matchPortalLines(ret.lines, desired);
  const fresh = desired.filter((_, i) => matched[i] === null);
  const newIds = fresh.length ? await tx.ids.next('return_lines', fresh.length) : [];
  const offCatalog = fresh
    .filter((d) => !order?.lines.some((l) => l.variantId === d.variant.variant.id))
    .map((d) => d.variant.variant.sku);
  const catalog = offCatalog.length
    ? await tx.products.findSaleableVariants(ret.brandId, { skus: [...new Set(offCatalog)] })
    : [];
  let next = 0;
  const lines = desired.map((wanted, i): ReturnLine => {
    const values = {
      expectedQuantity: wanted.expectedQuantity,
      claimType: wanted.claimType,
      claimCauseId: wanted.claimCauseId,
      unitPriceInclVat: wanted.unitPriceInclVat,
      unitPrice: feeInReturnBasis(wanted.unitPriceInclVat, ret),
      discountBasisPoints: 0,
      comments: wanted.comments,
      regulateInventory: wanted.regulateInventory,
    };
    const stored = matched[i];
    if (stored) return { ...stored, ...values };
    const id = newIds[next++]!;
    const v = wanted.variant.variant;
    const orderLine = order?.lines.find((l) => l.variantId === v.id) ?? null;
    const saleable = catalog.find((c) => c.variant.id === v.id);
    const customs = (key: string): string | null => {
      for (const meta of [v.meta, saleable?.product.meta ?? {}]) {
        const value = meta[key];
        if (typeof value === 'string' && value !== '') return value;
      }
      return null;
    };
    return {
      id,
      returnId: ret.id,
      orderLineId: orderLine?.id ?? null,
      variantId: v.id,
      productId: v.productId,
      sku: v.sku,
      ean: v.ean,
      itemNumber: orderLine?.itemNumber ?? wanted.variant.itemNumber,
      productName: orderLine?.productName ?? saleable?.product.name ?? wanted.variant.itemNumber,
      attributes: { ...(orderLine?.attributes ?? v.attributes) },
      countryOfOrigin: orderLine ? orderLine.countryOfOrigin : customs('country_of_origin'),
      composition: orderLine ? orderLine.composition : customs('composition'),
      hsTariffCode: orderLine ? orderLine.hsTariffCode : customs('hs_tariff_code'),
      receivedQuantity: 0,
      refundStorefront: false,
      ...values,
    };
  });
  return lines.sort((a, b) => a.id - b.id);
}

/** What a portal may change on a line: equal in all of it means the upsert left the line alone. */
const LINE_FIELDS = [
  'id',
  'variantId',
  'expectedQuantity',
  'claimType',
  'claimCauseId',
  'unitPriceInclVat',
  'unitPrice',
  'comments',
  'regulateInventory',
] as const;

/** Whether two sets of lines (both by id) are the same lines saying the same things. */
export function sameLines(a: readonly ReturnLine[], b: readonly ReturnLine[]): boolean {
  return a.length === b.length && a.every((line, i) => LINE_FIELDS.every((field) => line[field] === b[i]![field]));
}
