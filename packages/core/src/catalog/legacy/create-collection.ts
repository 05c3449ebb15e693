import { Clock } from '../../shared/clock.ports';
import { ViolationList } from '../../shared/errors';
import { Repositories, UnitOfWork } from '../../shared/unit-of-work.ports';
import { Collection } from '../catalog.entities';
import { settleAll } from '../../shared/settle-all';

/**
 * Who may view a collection's products: `own_entity` — every customer of the brand (the owning
 * entity); `customers_custom` — only the customers in `allowed_customers`.
 */
export const COLLECTION_VISIBILITIES = ['own_entity', 'customers_custom'] as const;
/** One of `COLLECTION_VISIBILITIES`. */
export type CollectionVisibility = (typeof COLLECTION_VISIBILITIES)[number];

/** What `createCollection` adds: a title, whether it is active, and who may view it. */
export interface CreateCollectionInput {
  brandId: number;
  title: string;
  /** Default true. */
  active?: boolean;
  /** Default `own_entity`. */
  visibility?: string;
  /** Customer ids of the brand; default none. Kept with any visibility, used with `customers_custom`. */
  allowedCustomerIds?: number[];
}

/**
 * `POST /api/collections`: adds a collection. `visibility` must be one of
 * `COLLECTION_VISIBILITIES`; every allowed customer must be a customer of the brand.
 */
export async function createCollection(
  deps: { uow: UnitOfWork<Pick<Repositories, 'collections' | 'customers' | 'ids'>>; clock: Clock },
  input: CreateCollectionInput,
): Promise<Collection> {
  const title = input.title.trim();
  const visibility = input.visibility ?? 'own_entity';
  const allowed = [...new Set(input.allowedCustomerIds ?? [])];
  return deps.uow.run(async (tx) => {
    const violations = new ViolationList();
    if (title === '') violations.add('/collection/title', 'must not be empty');
    if (!(COLLECTION_VISIBILITIES as readonly string[]).includes(visibility)) {
      violations.add('/collection/visibility', `must be one of ${COLLECTION_VISIBILITIES.join(', ')}`);
    }
    const found = await settleAll(allowed.map((id) => tx.customers.findById(input.brandId, id)));
    allowed.forEach((id, i) => {
      if (!found[i])
        violations.add(
          `/collection/allowed_customers/${(input.allowedCustomerIds ?? []).indexOf(id)}`,
          `names customer ${id}, which does not exist`,
        );
    });
    violations.throwIfAny();
    const [id] = await tx.ids.next('collections');
    const now = deps.clock.now();
    const collection: Collection = {
      id: id!,
      brandId: input.brandId,
      title,
      active: input.active ?? true,
      visibility,
      allowedCustomerIds: allowed,
      createdAt: now,
      updatedAt: now,
    };
    await tx.collections.insert(collection);
    return collection;
  });
}
