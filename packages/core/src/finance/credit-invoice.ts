import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { documentTotals, lineTotal } from '../shared/money';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { CreditNote, FinancialLine, Invoice } from './finance.entities';

/** One line of a back-office credit: pieces of a variant of the invoice, named by SKU or EAN. */
export interface CreditLineInput {
  sku?: string;
  ean?: string;
  quantity: number;
}

/** An invoice line with what other credit notes of the invoice already took of it. */
interface Creditable {
  line: FinancialLine;
  /** Pieces (or, for fees and shipping, times) not credited yet. */
  remaining: number;
  /** Amount already credited, so that the last credit of a line takes exactly the rest. */
  creditedAmount: number;
}

/**
 * `POST /v10/invoices/{id}/credit-notes`: drafts a credit note for a booked invoice at the
 * invoice's prices. Without `lines` it credits everything not credited yet, shipping and fees
 * included; with `lines` only those pieces (shipping stays). Never more than invoiced less what
 * the invoice's other credit notes (drafts included) already credit: asking for more is a 422
 * naming the line. When the note completes the crediting of the invoice, its totals are the
 * invoice's less the other notes', so credits in parts add up to the invoice to the cent.
 * Announces `credit_note.created` with the note as saved.
 */
export async function creditInvoice(
  deps: {
    uow: UnitOfWork<
      Pick<
        Repositories,
        | 'creditNotes'
        | 'documentNumbers'
        | 'events'
        | 'ids'
        | 'invoices'
        | 'orders'
        | 'timeline'
        | 'webhookDeliveries'
        | 'transaction'
        | 'webhookEndpoints'
      >
    >;
    clock: Clock;
  },
  input: { brandId: number; userId: number | null; invoiceId: number; lines?: CreditLineInput[] },
): Promise<CreditNote> {
  return deps.uow.run(async (tx) => {
    const at = deps.clock.now();
    const [invoice] = await tx.invoices.findByIds(input.brandId, [input.invoiceId]);
    if (!invoice) throw DomainError.notFound('invoice', input.invoiceId);
    if (invoice.status !== 'booked') {
      throw new DomainError(
        'invalid_state_transition',
        `invoice ${invoice.invoiceNumber} is ${invoice.status}: only a booked invoice can be credited`,
        {
          data: { status: invoice.status, required: 'booked' },
        },
      );
    }
    const others = await tx.creditNotes.findByInvoiceIds(input.brandId, [invoice.id]);
    const { creditables, allAttributed } = creditablesOf(invoice, others);

    const quantities =
      input.lines === undefined
        ? everythingLeft(invoice, creditables)
        : await requestedPieces(tx, invoice, creditables, input.lines);

    const lineIds = await tx.ids.next('credit_note_lines', quantities.size);
    const lines: FinancialLine[] = [...quantities].map(([index, quantity], i) => {
      const { line, remaining, creditedAmount } = creditables[index]!;
      const totalPrice =
        quantity === remaining
          ? line.totalPrice - creditedAmount
          : lineTotal(quantity, line.unitPrice, line.discountBasisPoints);
      return { ...line, id: lineIds[i]!, quantity, totalPrice };
    });
    const completes = creditables.every((c, index) => c.remaining === (quantities.get(index) ?? 0));
    const computed = documentTotals(
      lines.reduce((sum, l) => sum + l.totalPrice, 0),
      invoice.vatRateBasisPoints,
      invoice.pricesIncludeVat,
    );
    const rest = {
      netTotal: invoice.netTotal - others.reduce((sum, c) => sum + c.netTotal, 0),
      vatTotal: invoice.vatTotal - others.reduce((sum, c) => sum + c.vatTotal, 0),
      total: invoice.total - others.reduce((sum, c) => sum + c.total, 0),
    };
    // "The rest" is right only when every earlier credit is one of this invoice's lines and the
    // lines agree with it; it then differs from `computed` at most in how VAT rounds.
    const linesAgree = invoice.pricesIncludeVat ? computed.total === rest.total : computed.netTotal === rest.netTotal;
    const totals = completes && allAttributed && linesAgree ? rest : computed;

    const [id] = await tx.ids.next('credit_notes');
    const creditNote: CreditNote = {
      id: id!,
      brandId: invoice.brandId,
      creditNoteNumber: await tx.documentNumbers.next(invoice.brandId, 'credit_note'),
      status: 'draft',
      orderId: invoice.orderId,
      customerId: invoice.customerId,
      currency: invoice.currency,
      vatRateBasisPoints: invoice.vatRateBasisPoints,
      pricesIncludeVat: invoice.pricesIncludeVat,
      ...totals,
      invoiceId: invoice.id,
      returnId: null,
      bookedAt: null,
      createdAt: at,
      updatedAt: at,
      lines,
    };
    await tx.creditNotes.save(creditNote);
    const pieces = lines.filter((l) => l.kind === 'product').reduce((sum, l) => sum + l.quantity, 0);
    const what = `${pieces} ${pieces === 1 ? 'piece' : 'pieces'}${lines.some((l) => l.kind !== 'product') ? ' and charges' : ''}`;
    await recordEvents(tx, invoice.brandId, at, [
      {
        type: 'credit_note.created',
        object: creditNote,
        timeline: { note: `credits ${what} of invoice ${invoice.invoiceNumber}`, userId: input.userId },
      },
    ]);
    // The invoice announces nothing of being credited: its entry is written here.
    await tx.timeline.append([
      {
        brandId: invoice.brandId,
        documentType: 'invoice',
        documentId: invoice.id,
        kind: 'credited',
        note: `credit note ${creditNote.creditNoteNumber} drafted for ${what}`,
        systemId: null,
        userId: input.userId,
        createdAt: at,
      },
    ]);
    return creditNote;
  });
}

/** Products are matched by order line, charges (shipping, fees) by kind and label. */
const lineKey = (line: FinancialLine): string =>
  line.kind === 'product'
    ? `product:${line.orderLineId ?? `variant ${line.variantId}`}`
    : `${line.kind}:${line.description}`;

/**
 * What is left to credit of each invoice line: the other notes' lines are taken from the
 * invoice's lines of the same key, in order. `allAttributed` is false when some earlier credit
 * does not correspond to an invoice line (a return's fee, say).
 */
function creditablesOf(invoice: Invoice, others: CreditNote[]): { creditables: Creditable[]; allAttributed: boolean } {
  const creditables: Creditable[] = invoice.lines.map((line) => ({
    line,
    remaining: line.quantity,
    creditedAmount: 0,
  }));
  let allAttributed = true;
  for (const credited of others.flatMap((c) => c.lines)) {
    let pieces = credited.quantity;
    let amount = credited.totalPrice;
    const candidates = creditables.filter((c) => lineKey(c.line) === lineKey(credited) && c.remaining > 0);
    for (const candidate of candidates) {
      const taken = Math.min(candidate.remaining, pieces);
      // The amount goes with the pieces; the last candidate takes whatever amount is left.
      const share = taken === pieces ? amount : lineTotal(taken, credited.unitPrice, credited.discountBasisPoints);
      candidate.remaining -= taken;
      candidate.creditedAmount += share;
      pieces -= taken;
      amount -= share;
      if (pieces === 0) break;
    }
    if (pieces > 0) allAttributed = false;
  }
  return { creditables, allAttributed };
}

function everythingLeft(invoice: Invoice, creditables: Creditable[]): Map<number, number> {
  const quantities = new Map<number, number>();
  creditables.forEach((c, index) => {
    if (c.remaining > 0) quantities.set(index, c.remaining);
  });
  if (quantities.size === 0) {
    throw new DomainError('validation_failed', `invoice ${invoice.invoiceNumber} has nothing left to credit`, {
      violations: [{ pointer: '/lines', detail: `invoice ${invoice.invoiceNumber} is credited in full already` }],
    });
  }
  return quantities;
}

/**
 * The requested pieces as quantities per invoice line (by index), spread over the invoice's
 * lines of the variant in order. Every problem is collected before anything is refused.
 */
async function requestedPieces(
  tx: Pick<Repositories, 'orders'>,
  invoice: Invoice,
  creditables: Creditable[],
  requested: CreditLineInput[],
): Promise<Map<number, number>> {
  const violations = new ViolationList();
  if (requested.length === 0)
    violations.add('/lines', 'must contain at least one line (leave lines out to credit everything)');
  // EANs are not on invoice lines; the order's lines know them.
  let eanOf = new Map<number, string | null>();
  if (requested.some((r) => r.ean !== undefined) && invoice.orderId !== null) {
    const [order] = await tx.orders.findByIds(invoice.brandId, [invoice.orderId]);
    eanOf = new Map((order?.lines ?? []).map((l) => [l.id, l.ean]));
  }
  const products = creditables.map((c, index) => ({ ...c, index })).filter((c) => c.line.kind === 'product');
  const asked = new Map<number, number>(); // variant id → pieces asked so far
  const quantities = new Map<number, number>();
  requested.forEach((line, i) => {
    const pointer = `/lines/${i}`;
    const hasSku = line.sku !== undefined && line.sku !== null;
    const hasEan = line.ean !== undefined && line.ean !== null;
    if (hasSku === hasEan) {
      violations.add(`${pointer}/sku`, 'or ean is required, but not both');
      return;
    }
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
      violations.add(`${pointer}/quantity`, 'must be a whole number of pieces above 0');
      return;
    }
    const matches = products.filter((c) =>
      hasSku ? c.line.sku === line.sku : c.line.orderLineId !== null && eanOf.get(c.line.orderLineId) === line.ean,
    );
    const named = hasSku ? `SKU ${line.sku}` : `EAN ${line.ean}`;
    if (matches.length === 0) {
      violations.add(`${pointer}/${hasSku ? 'sku' : 'ean'}`, `${named} is not on invoice ${invoice.invoiceNumber}`);
      return;
    }
    const variantId = matches[0]!.line.variantId ?? -1;
    const invoiced = matches.reduce((sum, c) => sum + c.line.quantity, 0);
    const left = matches.reduce((sum, c) => sum + c.remaining, 0);
    const before = asked.get(variantId) ?? 0;
    asked.set(variantId, before + line.quantity);
    if (before + line.quantity > left) {
      violations.add(
        `${pointer}/quantity`,
        `credits ${before + line.quantity} pieces of ${named}, but only ${left} of the ${invoiced} invoiced are left to credit`,
      );
      return;
    }
    let pieces = line.quantity;
    for (const c of matches) {
      const free = c.remaining - (quantities.get(c.index) ?? 0);
      const taken = Math.min(free, pieces);
      if (taken > 0) quantities.set(c.index, (quantities.get(c.index) ?? 0) + taken);
      pieces -= taken;
      if (pieces === 0) break;
    }
  });
  violations.throwIfAny();
  return new Map([...quantities].sort(([a], [b]) => a - b));
}
