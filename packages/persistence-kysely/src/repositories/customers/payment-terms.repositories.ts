import { PaymentTerms, PaymentTermsRepository } from '@brand/core';
import { Selectable } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { PaymentTermsTable } from '../../tables/partner.tables';
import { Executor } from '../executor';

const rowToTerms = (r: Selectable<PaymentTermsTable>): PaymentTerms => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  code: r.code,
  name: r.name,
  days: r.days,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const TERMS_COLUMNS: ListColumns = {
  id: { column: 'payment_terms.id', type: 'integer' },
  code: { column: 'payment_terms.code', type: 'string' },
  name: { column: 'payment_terms.name', type: 'string' },
  days: { column: 'payment_terms.days', type: 'integer' },
  created_at: { column: 'payment_terms.created_at', type: 'datetime' },
  updated_at: { column: 'payment_terms.updated_at', type: 'datetime' },
};

const TERMS_LIST = brandTableList('payment_terms', TERMS_COLUMNS);

export function paymentTermsRepository(executor: Executor): PaymentTermsRepository {
  const { db } = executor;
  return {
    async insert(t) {
      await db
        .insertInto('payment_terms')
        .values({
          id: t.id,
          brand_id: t.brandId,
          code: t.code,
          name: t.name,
          days: t.days,
          created_at: t.createdAt,
          updated_at: t.updatedAt,
        })
        .execute();
    },
    async findByIds(brandId, ids) {
      if (ids.length === 0) return [];
      return (
        await db
          .selectFrom('payment_terms')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('id', 'in', ids)
          .orderBy('id')
          .execute()
      ).map(rowToTerms);
    },
    async findByCodes(brandId, codes) {
      if (codes.length === 0) return [];
      return (
        await db
          .selectFrom('payment_terms')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('code', 'in', codes)
          .orderBy('id')
          .execute()
      ).map(rowToTerms);
    },
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, TERMS_LIST, brandId, query);
      return { rows: rows.map(rowToTerms), total };
    },
  };
}
