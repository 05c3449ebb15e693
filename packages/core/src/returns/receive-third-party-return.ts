import { CreditNote } from '../finance/finance.entities';
import { lookupInLines, resolveVariantLines } from '../orders/variant-lines';
import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ReturnReceiptRepositories, receiveReturnPieces } from './receive-return-pieces';
import { Return } from './return.entities';
import { refusal, spreadOverLines } from './return-line-builders';

/** One line of the warehouse's receipt: pieces of a variant of the return, named by SKU or EAN. */
export interface ReceiptLineInput {
  sku?: string;
  ean?: string;
  receivedQuantity: number;
}

const RMA_POINTER = '/return/rma';
const LINES_POINTER = '/return/lines';

/** The one return of the brand with this rma, else a 422 at `/return/rma` (none, or several the warehouse cannot tell apart). */
async function returnByRma(tx: Pick<Repositories, 'returns'>, brandId: number, rawRma: string): Promise<Return> {
  const rma = rawRma.trim();
  const found = rma === '' ? [] : await tx.returns.findByRma(brandId, rma);
  if (found.length === 0) throw refusal(RMA_POINTER, `${JSON.stringify(rma)} is not the RMA of a return of this brand`);
  if (found.length > 1) {
    throw refusal(
      RMA_POINTER,
      `${JSON.stringify(rma)} is the RMA of ${found.length} returns (ids ${found.map((r) => r.id).join(', ')}); receive them in the back office`,
    );
  }
  return found[0]!;
}

/**
 * `POST /3pl/returns/receive`: the warehouse counted an approved RMA. The return is found by its
 * rma (an rma several returns share — portals may reuse another's — is a 422: the warehouse
 * cannot say which). Lines name variants of the return; a variant's pieces (summed over the
 * receipt's lines) may not exceed what the return expects of it, and are spread over its lines of
 * the variant in line order; variants left out received nothing. At least one piece must arrive
 * (a receipt of nothing would close the RMA by mistake). All or nothing: any bad line refuses the
 * whole receipt. The receipt moves the return to `received`, restocks returned pieces and drafts
 * the credit note (`receiveReturnPieces`), announcing `return.received` and `credit_note.created`.
 */
export async function receiveThirdPartyReturn(
  deps: { uow: UnitOfWork<ReturnReceiptRepositories>; clock: Clock },
  input: { brandId: number; userId: number | null; rma: string; lines: ReceiptLineInput[] },
): Promise<{ ret: Return; creditNote: CreditNote | null }> {
  return deps.uow.run(async (tx) => {
    const ret = await returnByRma(tx, input.brandId, input.rma);
    if (ret.status !== 'approved') {
      throw new DomainError(
        'invalid_state_transition',
        `return ${ret.rma} is ${ret.status}: only an approved return can be received`,
        {
          data: { status: ret.status, required: 'approved' },
        },
      );
    }
    const violations = new ViolationList();
    // The SKU/EAN matching is the shared one; it wants quantities above 0, and a receipt may
    // report 0 of a line, so pieces are checked here instead.
    const resolved = await resolveVariantLines(
      input.lines.map((l) => ({
        ...(l.sku !== undefined ? { sku: l.sku } : {}),
        ...(l.ean !== undefined ? { ean: l.ean } : {}),
        quantity: 1,
      })),
      LINES_POINTER,
      lookupInLines(ret.lines, `is not on return ${ret.rma}`),
      violations,
    );
    const perVariant = new Map<number, number>();
    for (const r of resolved) {
      const pieces = input.lines[r.index]!.receivedQuantity;
      const pointer = `${LINES_POINTER}/${r.index}/received_quantity`;
      if (!Number.isSafeInteger(pieces) || pieces < 0) {
        violations.add(pointer, 'must be a whole number of pieces, 0 or more');
        continue;
      }
      const total = (perVariant.get(r.variantId) ?? 0) + pieces;
      perVariant.set(r.variantId, total);
      const expected = ret.lines
        .filter((l) => l.variantId === r.variantId)
        .reduce((sum, l) => sum + l.expectedQuantity, 0);
      if (total > expected)
        violations.add(pointer, `SKU ${r.sku}: ${total} pieces received, but return ${ret.rma} expects ${expected}`);
    }
    if (violations.isEmpty && [...perVariant.values()].every((pieces) => pieces === 0)) {
      violations.add(LINES_POINTER, 'must report at least one piece received');
    }
    violations.throwIfAny();

    const received = new Map<number, number>();
    for (const [variantId, pieces] of perVariant) {
      const candidates = ret.lines
        .filter((l) => l.variantId === variantId)
        .map((line) => ({ line, room: line.expectedQuantity }));
      for (const share of spreadOverLines(pieces, candidates)) received.set(share.line.id, share.pieces);
    }
    return receiveReturnPieces(tx, { ret, received, userId: input.userId, at: deps.clock.now() });
  });
}
