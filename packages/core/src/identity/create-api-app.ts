import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ApiApp } from './identity.entities';
import { SecretHasher } from './identity.ports';

/** What `createApiApp` registers: the brand, the app's name and an optional internal code. */
export interface CreateApiAppInput {
  brandId: number;
  name: string;
  internalCode?: string | null;
}

/** Registers an integration. The plain app key is returned once and only its hash is stored. */
export async function createApiApp(
  deps: { uow: UnitOfWork<Pick<Repositories, 'apiApps' | 'brands' | 'ids'>>; clock: Clock; hasher: SecretHasher },
  input: CreateApiAppInput,
): Promise<{ app: ApiApp; appKey: string }> {
  const violations = new ViolationList();
  if (input.name.trim() === '') violations.add('/name', 'must not be empty');
  if (
    input.internalCode !== undefined &&
    input.internalCode !== null &&
    !/^[a-z0-9_-]{1,64}$/.test(input.internalCode)
  ) {
    violations.add('/internal_code', 'must be 1-64 characters of a-z, 0-9, _ or -');
  }
  violations.throwIfAny();
  const appKey = deps.hasher.randomSecret();
  const app = await deps.uow.run(async (tx) => {
    if (!(await tx.brands.findById(input.brandId))) throw DomainError.notFound('brand', input.brandId);
    const [id] = await tx.ids.next('api_apps');
    const created: ApiApp = {
      id: id!,
      brandId: input.brandId,
      name: input.name.trim(),
      appKeyHash: deps.hasher.hash(appKey),
      internalCode: input.internalCode ?? null,
      createdAt: deps.clock.now(),
    };
    await tx.apiApps.insert(created);
    return created;
  });
  return { app, appKey };
}
