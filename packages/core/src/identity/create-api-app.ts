import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ApiApp } from './identity.entities';
import { SecretHasher } from './identity.ports';
import { checkRedirectUris } from './redirect-uris';

/**
 * What `createApiApp` registers: the brand, the app's name, an optional internal code and the
 * OAuth redirect URIs, if the app is to obtain tokens through the authorization-code flow.
 */
export interface CreateApiAppInput {
  brandId: number;
  name: string;
  internalCode?: string | null;
  /** At most 10, each an https URL or http on a loopback host (see `redirectUriProblem`). */
  redirectUris?: string[];
}

/** Characters of random after `app_` in a client id: a cut of a 256-bit URL-safe secret (144 bits), unguessable. */
const CLIENT_ID_RANDOM_LENGTH = 24;

/** A new public client id: `app_` and 24 URL-safe random characters. */
function newClientId(hasher: SecretHasher): string {
  return `app_${hasher.randomSecret().slice(0, CLIENT_ID_RANDOM_LENGTH)}`;
}

/**
 * Registers an integration. The plain app key (the OAuth `client_secret`) is returned once and only
 * its hash is stored; the app gets a public client id and the redirect URIs given.
 * @example const { app, appKey } = await createApiApp({ uow, clock, hasher }, { brandId, name: 'ERP', redirectUris: ['https://erp.example.com/callback'] });
 */
export async function createApiApp(
  deps: { uow: UnitOfWork<Pick<Repositories, 'apiApps' | 'brands' | 'ids'>>; clock: Clock; hasher: SecretHasher },
  input: CreateApiAppInput,
): Promise<{ app: ApiApp; appKey: string; redirectUris: string[] }> {
  const violations = new ViolationList();
  if (input.name.trim() === '') violations.add('/name', 'must not be empty');
  if (
    input.internalCode !== undefined &&
    input.internalCode !== null &&
    !/^[a-z0-9_-]{1,64}$/.test(input.internalCode)
  ) {
    violations.add('/internal_code', 'must be 1-64 characters of a-z, 0-9, _ or -');
  }
  const redirectUris = checkRedirectUris(input.redirectUris ?? [], violations);
  violations.throwIfAny();
  const appKey = deps.hasher.randomSecret();
  const app = await deps.uow.run(async (tx) => {
    if (!(await tx.brands.findById(input.brandId))) throw DomainError.notFound('brand', input.brandId);
    let clientId = newClientId(deps.hasher);
    // A clash is astronomically unlikely; checking costs one indexed read.
    while (await tx.apiApps.findByClientId(clientId)) clientId = newClientId(deps.hasher);
    const [id] = await tx.ids.next('api_apps');
    const created: ApiApp = {
      id: id!,
      brandId: input.brandId,
      clientId,
      name: input.name.trim(),
      appKeyHash: deps.hasher.hash(appKey),
      internalCode: input.internalCode ?? null,
      createdAt: deps.clock.now(),
    };
    await tx.apiApps.insert(created);
    if (redirectUris.length > 0) await tx.apiApps.replaceRedirectUris(created.brandId, created.id, redirectUris);
    return created;
  });
  return { app, appKey, redirectUris };
}
