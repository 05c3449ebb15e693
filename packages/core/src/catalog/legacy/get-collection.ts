import { DomainError } from '../../shared/errors';
import { Repositories, UnitOfWork } from '../../shared/unit-of-work.ports';
import { Collection } from '../catalog.entities';

/** `GET /api/collections/{id}`: one collection of the brand. */
export async function getCollection(
  deps: { uow: UnitOfWork<Pick<Repositories, 'collections'>> },
  input: { brandId: number; id: number },
): Promise<Collection> {
  const [collection] = await deps.uow.read((repos) => repos.collections.findByIds(input.brandId, [input.id]));
  if (!collection) throw DomainError.notFound('collection', input.id);
  return collection;
}
