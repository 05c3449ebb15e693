import { SecretHasher } from '../identity/identity.ports';

/** How long a key's answer is replayed (DESIGN §12): after this, the key is forgotten and may be used afresh. */
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * How long a running request holds its key before a retry may take it over. A request that takes
 * longer is not harmed: its answer is stored only while it still holds the claim, so one of the
 * two commits and the other rolls back. A retry sooner than this after a crash answers
 * `idempotency_key_in_use`.
 */
export const IDEMPOTENCY_CLAIM_LEASE_MS = 60 * 1000;

/** The longest key accepted (DESIGN §12). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * The key an `Idempotency-Key` header carries, or null when it carries none that is valid: 1 to
 * 255 visible ASCII characters, sent bare (`order-4711`) or as a structured-field string
 * (`"order-4711"`, RFC 8941, where `\"` and `\\` stand for `"` and `\`, and spaces may appear).
 * Both spellings of one key are the same key.
 */
export function parseIdempotencyKey(header: string): string | null {
  const value = header.trim();
  let key: string;
  if (value.startsWith('"')) {
    const quoted = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(value);
    if (!quoted) return null;
    key = quoted[1]!.replace(/\\(["\\])/g, '$1');
  } else {
    if (!/^[\x21-\x7e]+$/.test(value)) return null;
    key = value;
  }
  return key.length >= 1 && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH && /[\x21-\x7e]/.test(key) ? key : null;
}

/**
 * JSON with every object's keys in code-unit order and no spacing: two bodies that mean the same
 * (keys in another order, other whitespace) are the same text.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/**
 * What a key is bound to: SHA-256 of the method, the path with its query string, and the
 * canonical body (none: the empty string). A replay must match all three.
 */
export function requestFingerprint(
  hasher: Pick<SecretHasher, 'hash'>,
  request: { method: string; path: string; body: unknown },
): string {
  const body = request.body === undefined ? '' : canonicalJson(request.body);
  return hasher.hash(`${request.method.toUpperCase()} ${request.path}\n${body}`);
}
