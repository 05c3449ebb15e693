import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { OrderChannel } from './order.entities';

/**
 * One order channel of the brand (`GET /v10/order-channels/{id}`), by its id or by the public id
 * that orders are placed with. A channel of another brand is `not_found`, exactly like a missing one.
 *
 * @example
 * const channel = await getOrderChannel({ uow }, { brandId, channel: { publicId: 'q9V…' } });
 */
export async function getOrderChannel(
  deps: { uow: UnitOfWork<Pick<Repositories, 'orderChannels'>> },
  input: { brandId: number; channel: { id: number } | { publicId: string } },
): Promise<OrderChannel> {
  const { brandId, channel: ref } = input;
  return deps.uow.read(async (repos) => {
    const channel =
      'id' in ref
        ? ((await repos.orderChannels.findByIds(brandId, [ref.id]))[0] ?? null)
        : await repos.orderChannels.findByPublicId(brandId, ref.publicId);
    if (!channel) throw DomainError.notFound('order channel', 'id' in ref ? ref.id : ref.publicId);
    return channel;
  });
}
