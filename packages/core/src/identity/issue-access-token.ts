import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { AccessToken } from './identity.entities';
import { SecretHasher } from './identity.ports';
import { ALL_SCOPES, Scope, isScope } from './scopes';

/** Tokens live a year unless told otherwise. */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 365 * 24 * 60 * 60;

/**
 * What `issueAccessToken` needs: the user, the app, and optionally the scopes and a lifetime
 * (default one year).
 */
export interface IssueAccessTokenInput {
  /** The brand the caller acts for (the console); the CLI, an operator's tool, names a user by id alone. */
  brandId?: number;
  userId: number;
  appId: number;
  /** Defaults to every scope. */
  scopes?: string[];
  expiresInSeconds?: number;
}

/**
 * Issues a personal access token to a user for one app of the same brand. The plain token is
 * returned once; storage keeps only its hash.
 */
export async function issueAccessToken(
  deps: {
    uow: UnitOfWork<Pick<Repositories, 'accessTokens' | 'apiApps' | 'ids' | 'users'>>;
    clock: Clock;
    hasher: SecretHasher;
  },
  input: IssueAccessTokenInput,
): Promise<{ token: AccessToken; accessToken: string }> {
  const violations = new ViolationList();
  const scopes = input.scopes ?? ALL_SCOPES;
  scopes.forEach((scope, i) => {
    if (!isScope(scope))
      violations.add(`/scopes/${i}`, `${JSON.stringify(scope)} is not a scope; use area:read or area:write`);
  });
  const lifetime = input.expiresInSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
  if (!Number.isSafeInteger(lifetime) || lifetime <= 0)
    violations.add('/expires_in', 'must be a positive number of seconds');
  violations.throwIfAny();

  const accessToken = deps.hasher.randomSecret();
  const token = await deps.uow.run(async (tx) => {
    const user =
      input.brandId !== undefined
        ? await tx.users.findById(input.brandId, input.userId)
        : await tx.users.findByIdAnyBrand(input.userId);
    if (!user) throw DomainError.notFound('user', input.userId);
    // Read within the user's brand: an app of another brand is missing, tenants never see each other.
    const app = await tx.apiApps.findById(user.brandId, input.appId);
    if (!app) throw DomainError.notFound('api app', input.appId);
    const [id] = await tx.ids.next('access_tokens');
    const now = deps.clock.now();
    const issued: AccessToken = {
      id: id!,
      brandId: user.brandId,
      userId: user.id,
      appId: app.id,
      tokenHash: deps.hasher.hash(accessToken),
      scopes: [...new Set(scopes as Scope[])],
      expiresAt: new Date(Date.parse(now) + lifetime * 1000).toISOString(),
      revokedAt: null,
      createdAt: now,
    };
    await tx.accessTokens.insert(issued);
    return issued;
  });
  return { token, accessToken };
}
