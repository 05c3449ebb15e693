/**
 * Invoices, credit notes and the accounting entries booking them. Amounts are minor units of the
 * document's currency. A document is `draft` until booked; booking is final and writes one
 * balanced accounting entry.
 */

/**
 * Where an invoice or credit note is in its lifecycle (`financialDocumentLifecycle`): draft until
 * booked, booked for good.
 */
export type FinancialDocumentStatus = 'draft' | 'booked';

/** A product line or a fee (shipping, return fee) of an invoice or credit note. */
export interface FinancialLine {
  id: number;
  kind: 'product' | 'shipping' | 'fee';
  /** The order line it bills or credits; null for fees. */
  orderLineId: number | null;
  variantId: number | null;
  sku: string | null;
  /** Product name, or the fee's label. */
  description: string;
  quantity: number;
  /** Per piece, in the document's VAT basis. */
  unitPrice: number;
  discountBasisPoints: number;
  totalPrice: number;
}

interface FinancialDocument {
  id: number;
  brandId: number;
  status: FinancialDocumentStatus;
  orderId: number | null;
  customerId: number;
  currency: string;
  vatRateBasisPoints: number;
  pricesIncludeVat: boolean;
  netTotal: number;
  vatTotal: number;
  total: number;
  bookedAt: string | null;
  createdAt: string;
  updatedAt: string;
  lines: FinancialLine[];
}

/**
 * A bill to a customer for the pieces a shipment delivered (in-service invoicing), numbered in the
 * brand's invoice series.
 */
export interface Invoice extends FinancialDocument {
  invoiceNumber: number;
  /** The delivered shipment it bills (in-service invoicing), if any. */
  shipmentId: number | null;
  /** Whether booking took its pieces out of In stock (in-service invoicing); never done twice. */
  inventoryRegulated: boolean;
}

/** A refund to a customer, crediting an invoice or a return, numbered in the brand's credit note series. */
export interface CreditNote extends FinancialDocument {
  creditNoteNumber: number;
  /** The invoice it credits, if any. */
  invoiceId: number | null;
  /** The return it refunds, if any (returns module). */
  returnId: number | null;
}

/** The kind of document an accounting entry books. */
export type AccountingDocumentType = 'invoice' | 'credit_note';

/** The accounts entries post to (a chart of accounts of three). */
export type Account = 'accounts_receivable' | 'revenue' | 'vat_payable';

/** One debit or credit of an accounting entry on one account. */
export interface AccountingLine {
  account: Account;
  /** Exactly one of debit and credit is non-zero. */
  debit: number;
  credit: number;
}

/** The balanced booking of one invoice or credit note, written when the document is booked. */
export interface AccountingEntry {
  id: number;
  brandId: number;
  entryNumber: number;
  documentType: AccountingDocumentType;
  documentId: number;
  /** YYYY-MM-DD (UTC) of booking. */
  date: string;
  currency: string;
  /** Sum of debits equals sum of credits. */
  lines: AccountingLine[];
  createdAt: string;
  updatedAt: string;
}
