import { DomainError } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { Order } from './order.entities';

/** The brand's order by id (locked until the transaction ends on Postgres), or 404: another brand's order is as unknown as a missing one. */
export async function findOrderOrFail(
  repos: Pick<Repositories, 'orders'>,
  brandId: number,
  orderId: number,
): Promise<Order> {
  const [order] = await repos.orders.findByIds(brandId, [orderId]);
  if (!order) throw DomainError.notFound('order', orderId);
  return order;
}
