import { Request, Response } from 'express';
import {
  IdempotencyScope,
  Repositories,
  SecretHasher,
  StoredAnswer,
  UnitOfWork,
  Clock,
  beginIdempotentRequest,
  completeIdempotentRequest,
  idempotencyKeyInUse,
  idempotencyKeyReused,
  isDomainError,
  parseIdempotencyKey,
  releaseIdempotentRequest,
  requestFingerprint,
} from '@brand/core';
import { ApiError } from './api-error';
import { toErrorResponse } from './error-handler';
import { principalOf } from './request-context';
import { RouteDefinition } from './route';
import { inSharedTransaction, requestTransactions } from './shared-transactions';
import { ETAG_HEADER, entityTagOf } from './conditional-requests';

/** The request header carrying the key (DESIGN §12). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The answer header telling a replay from a first answer. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

const WRITE_METHODS = new Set(['post', 'put', 'patch']);

/** Whether a route takes an `Idempotency-Key`: the writes of the current interface, `/3pl` and the syncs (DESIGN §12). */
export function takesIdempotencyKeys(route: Pick<RouteDefinition, 'auth' | 'method'>): boolean {
  return route.auth === 'current' && WRITE_METHODS.has(route.method);
}

/** A route's answer before it is sent: status, JSON body (undefined: none) and Location. */
export interface RouteAnswer {
  status: number;
  body: unknown;
  location: string | null;
}

export interface IdempotencyDeps {
  /** The storage's own unit of work (not the sharing one): shared transactions are opened on it. */
  uow: UnitOfWork<Repositories>;
  clock: Clock;
  hasher: SecretHasher;
  bodyLimit: string;
}

/**
 * Refusals not kept as the key's answer: they say nothing about the request itself, and a retry
 * with the same key should run it (a conflict with a concurrent write, another request holding the key).
 */
const TRANSIENT_CODES = new Set(['concurrency_conflict', 'idempotency_key_in_use']);

/** The answer as sent and stored: the JSON text (empty without a body). */
const storedAnswerOf = (answer: RouteAnswer): StoredAnswer => ({
  status: answer.status,
  body: answer.body === undefined ? '' : JSON.stringify(answer.body),
  location: answer.location,
});

/**
 * Sends a stored answer, marked as a replay or not; with the `ETag` of its body when the route tags
 * its answers (a replay then carries the tag of the state it showed, as the first answer did).
 */
function sendStored(res: Response, answer: StoredAnswer, replayed: boolean, tagsAnswer: boolean): void {
  if (replayed) res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  if (tagsAnswer && answer.body !== '' && answer.status < 300) res.setHeader(ETAG_HEADER, entityTagOf(answer.body));
  if (answer.location !== null) res.setHeader('Location', answer.location);
  res.statusCode = answer.status;
  if (answer.body === '') {
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(answer.body));
  res.end(answer.body);
}

/**
 * Answers a write that carries an `Idempotency-Key` (DESIGN §12). The key is claimed first, in a
 * transaction of its own (a concurrent request with the key then answers 409 at once); a replay
 * sends the stored answer with `Idempotent-Replayed: true` and runs nothing; another request under
 * the key is a 422. Otherwise the route runs inside one shared transaction that its use cases join,
 * and its answer is stored in that same transaction before the commit: the change and its answer
 * commit together or not at all, so a retry after a crash finds either nothing or the answer.
 * A refusal (4xx) is stored as well, after the rollback; a 5xx gives the key back.
 */
export async function answerIdempotently(
  deps: IdempotencyDeps,
  req: Request,
  res: Response,
  header: string,
  run: () => Promise<RouteAnswer>,
  tagsAnswer = false,
): Promise<void> {
  const key = parseIdempotencyKey(header);
  if (key === null)
    throw new ApiError(
      400,
      'invalid_idempotency_key',
      'The Idempotency-Key header must be 1 to 255 visible ASCII characters, bare or as a quoted string',
      { source: { header: IDEMPOTENCY_KEY_HEADER } },
    );
  const principal = principalOf(res);
  if (!principal) throw new Error(`${req.method} ${req.path} takes idempotency keys but was not authenticated`);
  const scope: IdempotencyScope = { brandId: principal.brandId, appId: principal.appId, key };
  const fingerprint = requestFingerprint(deps.hasher, { method: req.method, path: req.originalUrl, body: req.body });

  const start = await beginIdempotentRequest(deps, { scope, fingerprint });
  if (start.kind === 'replay') return sendStored(res, start.answer, true, tagsAnswer);
  if (start.kind === 'in_use') throw idempotencyKeyInUse();
  if (start.kind === 'reused') throw idempotencyKeyReused();
  const { claimToken } = start;

  let answer: StoredAnswer;
  try {
    answer = await inSharedTransaction(deps.uow, async () => {
      const stored = storedAnswerOf(await run());
      await requestTransactions.current()!.join((tx) => completeIdempotentRequest(tx, scope, claimToken, stored));
      return stored;
    });
  } catch (error) {
    throw await settleFailure(deps, scope, claimToken, error);
  }
  sendStored(res, answer, false, tagsAnswer);
}

/**
 * After a failed attempt: keeps a refusal as the key's answer (a retry replays it), or gives the
 * key back when the failure is ours or passing. Answers the error to send.
 */
async function settleFailure(
  deps: IdempotencyDeps,
  scope: IdempotencyScope,
  claimToken: string,
  error: unknown,
): Promise<unknown> {
  // The key went to a retry after this request outlived its claim: it is that request's now.
  if (isDomainError(error) && error.code === 'idempotency_key_in_use') return error;
  const response = toErrorResponse(error, deps.bodyLimit);
  const keep = response.status < 500 && !(isDomainError(error) && TRANSIENT_CODES.has(error.code));
  try {
    if (keep) {
      const answer: StoredAnswer = {
        status: response.status,
        body: JSON.stringify({ errors: response.errors }),
        location: null,
      };
      await deps.uow.run((tx) => completeIdempotentRequest(tx, scope, claimToken, answer));
    } else {
      await releaseIdempotentRequest(deps, { scope, claimToken });
    }
  } catch {
    // The storage is away or the claim lapsed: the claim then lapses after its lease, and a retry
    // runs the request again (nothing of it was committed).
  }
  return error;
}
