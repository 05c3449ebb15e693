import { DomainError } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { ProductionOrder } from './production.entities';

/** The brand's production order by id (locked until the transaction ends on Postgres), or 404: another brand's is as unknown as a missing one. */
export async function findProductionOrderOrFail(
  repos: Pick<Repositories, 'productionOrders'>,
  brandId: number,
  productionOrderId: number,
): Promise<ProductionOrder> {
  const [order] = await repos.productionOrders.findByIds(brandId, [productionOrderId]);
  if (!order) throw DomainError.notFound('production order', productionOrderId);
  return order;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar date written YYYY-MM-DD (February 30 is not). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [, year, month, day] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day)
  );
}
