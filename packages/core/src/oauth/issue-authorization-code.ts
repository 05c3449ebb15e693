import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { SecretHasher } from '../identity/identity.ports';
import { isRegisteredRedirectUri } from '../identity/redirect-uris';
import { ALL_SCOPES } from '../identity/scopes';
import { AUTHORIZATION_CODE_LIFETIME_SECONDS, OAuthAuthorizationCode } from './oauth.entities';
import { checkCodeChallenge, checkScopes } from './oauth-rules';

/** What `issueAuthorizationCode` needs: who allowed which app, where to send the code, what for, and the PKCE challenge. */
export interface IssueAuthorizationCodeInput {
  /** The brand of the signed-in user (the console session's). */
  brandId: number;
  userId: number;
  appId: number;
  /** The authorization request's `redirect_uri`: one the app registered, character for character. */
  redirectUri: string;
  /** Defaults to every scope (DESIGN §11: `scope` defaults to all). */
  scopes?: string[];
  /** BASE64URL(SHA-256(code_verifier)): required, PKCE is not optional here. */
  codeChallenge: string;
  /** `S256`; `plain` is refused. */
  codeChallengeMethod: string;
}

/**
 * Issues an authorization code when a user allows an app of the same brand (`GET /oauth/authorize`,
 * the consent's "allow"). The plain code is returned once, for the redirect; storage keeps its
 * hash. It expires in `AUTHORIZATION_CODE_LIFETIME_SECONDS` (10 minutes) and works once.
 */
export async function issueAuthorizationCode(
  deps: {
    uow: UnitOfWork<Pick<Repositories, 'apiApps' | 'ids' | 'oauthAuthorizationCodes' | 'users'>>;
    clock: Clock;
    hasher: SecretHasher;
  },
  input: IssueAuthorizationCodeInput,
): Promise<{ authorizationCode: OAuthAuthorizationCode; code: string }> {
  const violations = new ViolationList();
  const scopes = checkScopes(violations, input.scopes ?? ALL_SCOPES);
  const method = checkCodeChallenge(violations, input.codeChallenge, input.codeChallengeMethod);
  violations.throwIfAny();

  const code = deps.hasher.randomSecret();
  const authorizationCode = await deps.uow.run(async (tx) => {
    const user = await tx.users.findById(input.brandId, input.userId);
    if (!user) throw DomainError.notFound('user', input.userId);
    // Read within the user's brand: an app of another brand is missing, tenants never see each other.
    const app = await tx.apiApps.findById(user.brandId, input.appId);
    if (!app) throw DomainError.notFound('api app', input.appId);
    // The authorize step checks this before it asks for consent; checked again here so that no
    // code is ever bound to a URI the app did not register (RFC 9700 §4.1.3: exact match).
    const redirectUris = await tx.apiApps.findRedirectUris(app.brandId, app.id);
    if (!isRegisteredRedirectUri({ app, redirectUris }, input.redirectUri)) {
      const refused = new ViolationList();
      refused.add('/redirect_uri', 'is not a redirect URI registered for this app');
      refused.throwIfAny();
    }
    const [id] = await tx.ids.next('oauth_authorization_codes');
    const now = deps.clock.now();
    const issued: OAuthAuthorizationCode = {
      id: id!,
      brandId: user.brandId,
      appId: app.id,
      userId: user.id,
      codeHash: deps.hasher.hash(code),
      redirectUri: input.redirectUri,
      scopes,
      codeChallenge: input.codeChallenge,
      codeChallengeMethod: method!,
      expiresAt: new Date(Date.parse(now) + AUTHORIZATION_CODE_LIFETIME_SECONDS * 1000).toISOString(),
      usedAt: null,
      reusedAt: null,
      grantId: null,
      createdAt: now,
    };
    await tx.oauthAuthorizationCodes.insert(issued);
    return issued;
  });
  return { authorizationCode, code };
}
