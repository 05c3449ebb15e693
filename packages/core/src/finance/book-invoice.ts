import { NewTimelineEvent } from '../documents/document.entities';
import { NewDomainEvent } from '../events/event.entities';
import { recordEvents } from '../events/record-events';
import { Order } from '../orders/order.entities';
import { orderLifecycle } from '../orders/order.lifecycle';
import { regulateOrderLines } from '../orders/order-stock';
import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { loadSettings } from '../settings/load-settings';
import { writeAccountingEntry } from './accounting-entry-for';
import { AccountingEntry, Invoice } from './finance.entities';
import { financialDocumentLifecycle } from './finance.lifecycle';

type BookInvoiceRepositories = Pick<
  Repositories,
  | 'accountingEntries'
  | 'documentNumbers'
  | 'events'
  | 'ids'
  | 'inventoryLocations'
  | 'invoices'
  | 'orders'
  | 'settings'
  | 'stock'
  | 'timeline'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/**
 * `POST /v10/invoices/{id}/book`: books a draft invoice (final; booking twice is an
 * `invalid_state_transition`) and writes its balanced accounting entry.
 *
 * When the brand invoices in the service, booking is also where the invoiced pieces leave In
 * stock: its product lines are regulated out of the order's reservations (reason
 * `invoice_regulated`), the invoice remembers it (`inventoryRegulated`), and an approved order
 * whose every piece is then regulated is archived. `regulateOrderLines` never takes a line past
 * its quantity, so pieces already regulated (by an earlier invoice or an export) are not taken
 * twice.
 *
 * Announces `invoice.booked`, then, when booking changed the order (the invoice is saved before
 * its order), `order.archived` if it archived it, else `order.updated` (pieces regulated, the
 * order still open), each with the document as saved.
 */
export async function bookInvoice(
  deps: { uow: UnitOfWork<BookInvoiceRepositories>; clock: Clock },
  input: { brandId: number; userId: number | null; invoiceId: number },
): Promise<{ invoice: Invoice; accountingEntry: AccountingEntry }> {
  return deps.uow.run(async (tx) => {
    const at = deps.clock.now();
    const [draft] = await tx.invoices.findByIds(input.brandId, [input.invoiceId]);
    if (!draft) throw DomainError.notFound('invoice', input.invoiceId);
    financialDocumentLifecycle.assertTransition(draft.status, 'booked');

    // The order's entries of this booking, which no event announces (its `archived` is the
    // event's, and so is `regulated` when no `archived` follows): written before the events, so the
    // order's timeline reads booked, regulated, archived.
    const orderTimeline: NewTimelineEvent[] = [];
    let inventoryRegulated = draft.inventoryRegulated;
    let orderToSave: Order | null = null;
    let archivedNote: string | null = null;
    let regulatedNote: string | null = null;
    const settings = await loadSettings(tx, input.brandId);
    if (draft.orderId !== null) {
      const [order] = await tx.orders.findByIds(input.brandId, [draft.orderId]);
      if (order) {
        const entry = {
          brandId: input.brandId,
          documentType: 'order' as const,
          documentId: order.id,
          systemId: null,
          userId: input.userId,
          createdAt: at,
        };
        orderTimeline.push({ ...entry, kind: 'booked', note: `invoice ${draft.invoiceNumber} booked` });
        if (settings.invoicing === 'in_service' && !draft.inventoryRegulated) {
          const regulated = await regulateInvoicedPieces(tx, order, draft, input.userId, at);
          orderToSave = regulated.order;
          archivedNote = regulated.archivedNote;
          regulatedNote = regulated.regulatedNote;
          if (regulatedNote !== null && archivedNote !== null)
            orderTimeline.push({ ...entry, kind: 'regulated', note: regulatedNote });
          inventoryRegulated = true;
        }
      }
    }

    const invoice: Invoice = { ...draft, status: 'booked', bookedAt: at, updatedAt: at, inventoryRegulated };
    await tx.invoices.save(invoice);
    const accountingEntry = await writeAccountingEntry(tx, { type: 'invoice', invoice }, at);
    const announced: NewDomainEvent[] = [
      {
        type: 'invoice.booked',
        object: invoice,
        timeline: { note: `booked as accounting entry ${accountingEntry.entryNumber}`, userId: input.userId },
      },
    ];
    if (orderToSave) {
      await tx.orders.save(orderToSave);
      if (archivedNote !== null)
        announced.push({
          type: 'order.archived',
          object: orderToSave,
          timeline: { note: archivedNote, userId: input.userId },
        });
      // Not archived: the order was saved because booking regulated pieces of it.
      else
        announced.push({
          type: 'order.updated',
          object: orderToSave,
          timeline: { kind: 'regulated', note: regulatedNote, userId: input.userId },
        });
    }
    await tx.timeline.append(orderTimeline);
    await recordEvents(tx, input.brandId, at, announced);
    // The invoice's own `regulated` (no event announces it) follows its `booked`.
    if (inventoryRegulated && !draft.inventoryRegulated)
      await tx.timeline.append([
        {
          brandId: input.brandId,
          documentType: 'invoice',
          documentId: invoice.id,
          kind: 'regulated',
          note: 'invoiced pieces taken out of In stock',
          systemId: null,
          userId: input.userId,
          createdAt: at,
        },
      ]);
    return { invoice, accountingEntry };
  });
}

/**
 * Regulates the invoice's product pieces on its order (the stock moves now) and returns the order
 * for the caller to save when it changed (archived when nothing is left to regulate and it was
 * approved; null when unchanged), and what the order's timeline should say: `regulatedNote` when
 * pieces were taken (null when none), `archivedNote` when it archived the order (null when not).
 */
async function regulateInvoicedPieces(
  tx: Parameters<typeof regulateOrderLines>[0],
  order: Order,
  invoice: Invoice,
  userId: number | null,
  at: string,
): Promise<{ order: Order | null; regulatedNote: string | null; archivedNote: string | null }> {
  const pieces = new Map<number, number>();
  for (const line of invoice.lines) {
    if (line.kind === 'product' && line.orderLineId !== null)
      pieces.set(line.orderLineId, (pieces.get(line.orderLineId) ?? 0) + line.quantity);
  }
  const regulated = await regulateOrderLines(tx, order, pieces, 'invoice_regulated', {
    brandId: order.brandId,
    userId,
    at,
    documentType: 'invoice',
    documentId: invoice.id,
  });
  const taken =
    regulated.lines.reduce((sum, l) => sum + l.regulatedQuantity, 0) -
    order.lines.reduce((sum, l) => sum + l.regulatedQuantity, 0);
  const regulatedNote =
    taken > 0
      ? `${taken} ${taken === 1 ? 'piece' : 'pieces'} of invoice ${invoice.invoiceNumber} taken out of In stock`
      : null;
  let saved: Order = taken > 0 ? { ...regulated, updatedAt: at } : regulated;
  let archivedNote: string | null = null;
  const complete = regulated.lines.every((l) => l.regulatedQuantity >= l.quantity);
  if (complete && order.status === 'approved') {
    orderLifecycle.assertTransition(order.status, 'archived');
    saved = { ...saved, status: 'archived', archivedAt: at, updatedAt: at };
    archivedNote = `every piece invoiced and regulated (invoice ${invoice.invoiceNumber})`;
  }
  return { order: taken > 0 || archivedNote !== null ? saved : null, regulatedNote, archivedNote };
}
