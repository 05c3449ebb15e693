import { Request } from 'express';

/** What a request says about its access token, before anything is looked up. */
export type PresentedToken =
  | { kind: 'absent' }
  | { kind: 'token'; token: string }
  /** Bearer scheme with something that is not a token68 (RFC 6750 §2.1). */
  | { kind: 'malformed'; detail: string }
  /** More than one transmission method, or the query parameter repeated (RFC 6750 §2). */
  | { kind: 'ambiguous'; detail: string };

// b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Reads the access token from `Authorization: Bearer …` or the `access_token` query parameter
 * (the spec allows both). A small, strict extractor rather than a library: RFC 6750 extraction is
 * a dozen lines, and the few packages for it are unmaintained or pull in a whole auth framework.
 * Other schemes (Basic …) count as no token, so the answer is a plain 401 challenge.
 */
export function presentedToken(req: Request): PresentedToken {
  const header = req.headers.authorization;
  const query: unknown = (req.query as Record<string, unknown>)['access_token'];

  let fromHeader: PresentedToken = { kind: 'absent' };
  if (header !== undefined) {
    const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
    if (match) {
      const credentials = (match[1] ?? '').trim();
      fromHeader = B64TOKEN.test(credentials)
        ? { kind: 'token', token: credentials }
        : { kind: 'malformed', detail: 'The Authorization header does not carry a well-formed bearer token' };
    }
  }

  if (query === undefined) return fromHeader;
  if (typeof query !== 'string') return { kind: 'ambiguous', detail: 'Send the access_token query parameter once' };
  if (fromHeader.kind !== 'absent')
    return {
      kind: 'ambiguous',
      detail: 'Send the access token either in the Authorization header or as access_token, not both',
    };
  if (!B64TOKEN.test(query))
    return { kind: 'malformed', detail: 'The access_token query parameter is not a well-formed token' };
  return { kind: 'token', token: query };
}
