import {
  accountingEntryListDefinition,
  bookCreditNote,
  bookInvoice,
  creditInvoice,
  creditNoteListDefinition,
  getAccountingEntry,
  getCreditNote,
  getInvoice,
  invoiceListDefinition,
  listAccountingEntries,
  listCreditNotes,
  listInvoices,
} from '@brand/core';
import { CreditInvoiceDto, toCreditLines } from '../dtos/finance.dto';
import { Surface } from '../http/route';
import { listRequest, listResponse } from '../listing/list-request';
import { listOf, wrapped } from '../http/wire-schema';
import {
  AccountingEntrySchema,
  presentAccountingEntry,
  presentAccountingEntryDetail,
} from '../presenters/accounting-entry.presenter';
import { CreditNoteSchema, presentCreditNote, presentCreditNoteDetail } from '../presenters/credit-note.presenter';
import { InvoiceSchema, presentInvoice, presentInvoiceDetail } from '../presenters/invoice.presenter';
import { pathId } from '../http/path-id';
import { RouterDeps } from './router-deps';

/** Invoices, credit notes and accounting entries of the current interface, with their back-office actions (book, credit). */
export function financeV10Router(deps: RouterDeps): Surface<'current'> {
  return new Surface('v10-finance', 'current', ['/v10'])
    .route({
      method: 'get',
      path: '/v10/invoices',
      summary: 'List invoices',
      description: 'Sort by id (default) or updated_at; includes[]=lines adds the lines.',
      tag: 'Finance',
      scopes: ['finance:read'],
      list: invoiceListDefinition,
      status: 200,
      response: { description: 'A page of invoices', schema: listOf('invoices', InvoiceSchema) },
      handler: async ({ principal, req }) => {
        const result = await listInvoices(deps, await listRequest(req, principal.brandId, deps.cursors));
        const includeLines = result.query.includes.includes('lines');
        return listResponse('invoices', result, invoiceListDefinition, deps.cursors, (invoice) =>
          presentInvoice(invoice, { includeLines, exports: result.exports.get(invoice.id) ?? [] }),
        );
      },
    })
    .route({
      method: 'get',
      path: '/v10/invoices/:id',
      summary: 'Get an invoice',
      description: 'With its lines, timeline, accounting entry (once booked) and credit notes.',
      tag: 'Finance',
      scopes: ['finance:read'],
      includes: { resource: 'invoice', allowed: ['lines'] },
      status: 200,
      response: { description: 'The invoice', schema: wrapped('invoice', InvoiceSchema) },
      handler: async ({ principal, params }) => {
        return {
          invoice: presentInvoiceDetail(
            await getInvoice(deps, { brandId: principal.brandId, invoiceId: pathId(params['id'], 'invoice') }),
          ),
        };
      },
    })
    .route({
      method: 'post',
      path: '/v10/invoices/:id/book',
      summary: 'Book an invoice',
      description:
        'draft → booked (final; booking twice is a 422). Writes a balanced accounting entry. With in-service invoicing the invoiced pieces ' +
        'leave In stock (and their reservation); an order whose every piece is regulated is archived.',
      tag: 'Finance',
      scopes: ['finance:write'],
      status: 200,
      response: {
        description: 'The booked invoice, as GET shows it',
        schema: wrapped('invoice', InvoiceSchema),
      },
      handler: async ({ principal, params }) => {
        const invoiceId = pathId(params['id'], 'invoice');
        await bookInvoice(deps, { brandId: principal.brandId, userId: principal.userId, invoiceId });
        return { invoice: presentInvoiceDetail(await getInvoice(deps, { brandId: principal.brandId, invoiceId })) };
      },
    })
    .route({
      method: 'post',
      path: '/v10/invoices/:id/credit-notes',
      summary: 'Credit an invoice',
      description:
        'Drafts a credit note of a booked invoice at its prices: the lines sent, or everything not yet credited (shipping included) when lines are left out. ' +
        'A variant is never credited beyond what the invoice billed minus what its other credit notes credit.',
      tag: 'Finance',
      scopes: ['finance:write'],
      body: CreditInvoiceDto,
      optionalBody: true,
      status: 201,
      response: {
        description: 'The draft credit note with its lines',
        schema: wrapped('credit_note', CreditNoteSchema),
        showsLessThanGet: 'the timeline and accounting entry; GET the credit note for them and its ETag',
      },
      handler: async ({ principal, params, body }) => {
        const lines = toCreditLines(body);
        const creditNote = await creditInvoice(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          invoiceId: pathId(params['id'], 'invoice'),
          ...(lines ? { lines } : {}),
        });
        return { credit_note: presentCreditNote(creditNote, { includeLines: true, exports: [] }) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/credit-notes',
      summary: 'List credit notes',
      description: 'includes[]=lines adds the lines.',
      tag: 'Finance',
      scopes: ['finance:read'],
      list: creditNoteListDefinition,
      status: 200,
      response: { description: 'A page of credit notes', schema: listOf('credit_notes', CreditNoteSchema) },
      handler: async ({ principal, req }) => {
        const result = await listCreditNotes(deps, await listRequest(req, principal.brandId, deps.cursors));
        const includeLines = result.query.includes.includes('lines');
        return listResponse('credit_notes', result, creditNoteListDefinition, deps.cursors, (creditNote) =>
          presentCreditNote(creditNote, { includeLines, exports: result.exports.get(creditNote.id) ?? [] }),
        );
      },
    })
    .route({
      method: 'get',
      path: '/v10/credit-notes/:id',
      summary: 'Get a credit note',
      description: 'With its lines, timeline and accounting entry (once booked).',
      tag: 'Finance',
      scopes: ['finance:read'],
      includes: { resource: 'credit_note', allowed: ['lines'] },
      status: 200,
      response: { description: 'The credit note', schema: wrapped('credit_note', CreditNoteSchema) },
      handler: async ({ principal, params }) => {
        return {
          credit_note: presentCreditNoteDetail(
            await getCreditNote(deps, {
              brandId: principal.brandId,
              creditNoteId: pathId(params['id'], 'credit note'),
            }),
          ),
        };
      },
    })
    .route({
      method: 'post',
      path: '/v10/credit-notes/:id/book',
      summary: 'Book a credit note',
      description:
        'draft → booked (final; booking twice is a 422). Writes a balanced accounting entry reversing revenue and VAT.',
      tag: 'Finance',
      scopes: ['finance:write'],
      status: 200,
      response: {
        description: 'The booked credit note, as GET shows it',
        schema: wrapped('credit_note', CreditNoteSchema),
      },
      handler: async ({ principal, params }) => {
        const creditNoteId = pathId(params['id'], 'credit note');
        await bookCreditNote(deps, { brandId: principal.brandId, userId: principal.userId, creditNoteId });
        return {
          credit_note: presentCreditNoteDetail(await getCreditNote(deps, { brandId: principal.brandId, creditNoteId })),
        };
      },
    })
    .route({
      method: 'get',
      path: '/v10/accounting-entries',
      summary: 'List accounting entries',
      description: 'Each entry with its lines (always balanced).',
      tag: 'Finance',
      scopes: ['finance:read'],
      list: accountingEntryListDefinition,
      status: 200,
      response: {
        description: 'A page of accounting entries',
        schema: listOf('accounting_entries', AccountingEntrySchema),
      },
      handler: async ({ principal, req }) => {
        const result = await listAccountingEntries(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('accounting_entries', result, accountingEntryListDefinition, deps.cursors, (entry) =>
          presentAccountingEntry(entry, { exports: result.exports.get(entry.id) ?? [] }),
        );
      },
    })
    .route({
      method: 'get',
      path: '/v10/accounting-entries/:id',
      summary: 'Get an accounting entry',
      description: 'With its lines (always balanced), the systems that imported it and its timeline.',
      tag: 'Finance',
      scopes: ['finance:read'],
      status: 200,
      response: {
        description: 'The accounting entry',
        schema: wrapped('accounting_entry', AccountingEntrySchema),
      },
      handler: async ({ principal, params }) => ({
        accounting_entry: presentAccountingEntryDetail(
          await getAccountingEntry(deps, {
            brandId: principal.brandId,
            accountingEntryId: pathId(params['id'], 'accounting entry'),
          }),
        ),
      }),
    });
}
