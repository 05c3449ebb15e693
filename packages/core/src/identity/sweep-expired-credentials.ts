import { Clock } from '../shared/clock.ports';
import { deleteInBatches } from '../shared/delete-in-batches';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { CONSOLE_SESSION_IDLE_SECONDS } from '../console/console-session.entities';
import { AUTHORIZATION_CODE_LIFETIME_SECONDS } from '../oauth/oauth.entities';
import { REQUEST_LOG_RETENTION_DAYS } from './identity.entities';

/**
 * How long an access token that ended (expired or revoked) stays stored: the console's token list
 * goes on showing it as expired or revoked for a month, and the request log's entries go on
 * finding the token they were made with. A longer request log retention keeps them longer.
 */
export const ENDED_ACCESS_TOKEN_RETENTION_DAYS = 30;

/** The repositories `sweepExpiredCredentials` deletes from. */
export type CredentialSweepRepositories = Pick<
  Repositories,
  | 'consoleSessions'
  | 'oauthAuthorizationCodes'
  | 'oauthRefreshTokens'
  | 'oauthGrants'
  | 'accessTokens'
  | 'loginAttempts'
>;

/** How many rows of each kind one sweep deleted. */
export interface SweptCredentials {
  consoleSessions: number;
  authorizationCodes: number;
  refreshTokens: number;
  accessTokenLinks: number;
  /** Grants in which nothing was live any more; their codes, refresh tokens and links went with them uncounted. */
  oauthGrants: number;
  accessTokens: number;
  loginWindows: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The instant `ms` milliseconds before `at`. */
const before = (at: string, ms: number): string => new Date(Date.parse(at) - ms).toISOString();

/**
 * Deletes the credentials nothing will accept any more, of every brand, as of one instant:
 * - console sessions that ended (12 hours idle or 7 days old): no cookie resolves to them;
 * - authorization codes that expired without creating a grant, one more code lifetime after
 *   their expiry (an exchange that used a code just in time links its grant a moment later);
 * - refresh tokens that expired, spent or not;
 * - links to grants' access tokens that expired (revoking a grant looks only for live ones);
 * - grants in which nothing is live (see `OAuthGrantRepository.deleteEnded`), with their codes;
 * - access tokens that ended more than `ENDED_ACCESS_TOKEN_RETENTION_DAYS` ago, or the request
 *   log's retention if that is longer, so every logged request still finds its token;
 * - log-in throttle windows that closed.
 *
 * Each kind goes in batches of `batchRows`, each batch its own transaction, so a large backlog
 * never holds locks (or SQLite's one writer) for long. Every API process runs it now and then;
 * passes of several processes at once only find less to delete.
 * @example const swept = await sweepExpiredCredentials({ uow, clock }, { requestLogRetentionDays: 30 });
 */
export async function sweepExpiredCredentials(
  deps: { uow: UnitOfWork<CredentialSweepRepositories>; clock: Clock },
  input: { requestLogRetentionDays?: number; batchRows?: number } = {},
): Promise<SweptCredentials> {
  const now = deps.clock.now();
  const sweep = (deleteBatch: (tx: CredentialSweepRepositories, limit: number) => Promise<number>) =>
    deleteInBatches(deps.uow, deleteBatch, input.batchRows);

  const idleSince = before(now, CONSOLE_SESSION_IDLE_SECONDS * 1000);
  const consoleSessions = await sweep((tx, limit) => tx.consoleSessions.deleteEnded(now, idleSince, limit));

  const codesExpiredBy = before(now, AUTHORIZATION_CODE_LIFETIME_SECONDS * 1000);
  const authorizationCodes = await sweep((tx, limit) =>
    tx.oauthAuthorizationCodes.deleteExpiredWithoutGrant(codesExpiredBy, limit),
  );
  const refreshTokens = await sweep((tx, limit) => tx.oauthRefreshTokens.deleteExpiredBy(now, limit));
  const accessTokenLinks = await sweep((tx, limit) => tx.oauthGrants.deleteAccessTokenLinksExpiredBy(now, limit));
  const oauthGrants = await sweep((tx, limit) => tx.oauthGrants.deleteEnded(now, limit));

  const keepDays = Math.max(
    ENDED_ACCESS_TOKEN_RETENTION_DAYS,
    input.requestLogRetentionDays ?? REQUEST_LOG_RETENTION_DAYS,
  );
  const endedBefore = before(now, keepDays * DAY_MS);
  const accessTokens = await sweep((tx, limit) => tx.accessTokens.deleteEndedBefore(endedBefore, limit));

  const nowMs = Date.parse(now);
  const loginWindows = await sweep((tx, limit) => tx.loginAttempts.deleteClosedWindows(nowMs, limit));

  return {
    consoleSessions,
    authorizationCodes,
    refreshTokens,
    accessTokenLinks,
    oauthGrants,
    accessTokens,
    loginWindows,
  };
}
