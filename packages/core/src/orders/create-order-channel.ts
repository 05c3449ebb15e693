import { SecretHasher } from '../identity/identity.ports';
import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { OrderChannel, OrderType } from './order.entities';

/** Length of a channel's public id: a cut of a 256-bit URL-safe secret, still far beyond guessing. */
const PUBLIC_ID_LENGTH = 24;

/**
 * Back office: adds an order channel (a webshop, an ERP) of one order type. Integrations place
 * orders at `POST /v10/order-channels/{publicId}/orders`; `autoApprove` approves them on arrival;
 * `dropId` makes every order of the channel belong to that drop.
 *
 * @example
 * const channel = await createOrderChannel({ uow, clock, hasher }, { brandId, name: 'Webshop', orderType: 'b2c', autoApprove: true });
 */
export async function createOrderChannel(
  deps: { uow: UnitOfWork<Pick<Repositories, 'drops' | 'ids' | 'orderChannels'>>; clock: Clock; hasher: SecretHasher },
  input: { brandId: number; name: string; orderType: OrderType; autoApprove?: boolean; dropId?: number | null },
): Promise<OrderChannel> {
  const name = input.name.trim();
  const violations = new ViolationList();
  if (name === '') violations.add('/name', 'must not be empty');
  if (input.orderType !== 'b2b' && input.orderType !== 'b2c') violations.add('/order_type', 'must be b2b or b2c');
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    const dropId = input.dropId ?? null;
    if (dropId !== null && (await tx.drops.findByIds(input.brandId, [dropId])).length === 0) {
      violations.add('/drop_id', `names drop ${dropId}, which does not exist`);
    }
    violations.throwIfAny();
    let publicId = deps.hasher.randomSecret().slice(0, PUBLIC_ID_LENGTH);
    // A clash is astronomically unlikely; checking costs one indexed read.
    while (await tx.orderChannels.findByPublicIdAnyBrand(publicId))
      publicId = deps.hasher.randomSecret().slice(0, PUBLIC_ID_LENGTH);
    const [id] = await tx.ids.next('order_channels');
    const now = deps.clock.now();
    const channel: OrderChannel = {
      id: id!,
      brandId: input.brandId,
      publicId,
      name,
      orderType: input.orderType,
      autoApprove: input.autoApprove ?? false,
      dropId,
      createdAt: now,
      updatedAt: now,
    };
    await tx.orderChannels.insert(channel);
    return channel;
  });
}
