import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { DomainEvent } from './event.entities';

/** One event of the brand (`GET /v10/events/{id}`); another brand's event is not found, like a missing one. */
export async function getEvent(
  deps: { uow: UnitOfWork<Pick<Repositories, 'events'>> },
  input: { brandId: number; id: number },
): Promise<DomainEvent> {
  const [event] = await deps.uow.read((repos) => repos.events.findByIds(input.brandId, [input.id]));
  if (!event) throw DomainError.notFound('event', String(input.id));
  return event;
}
