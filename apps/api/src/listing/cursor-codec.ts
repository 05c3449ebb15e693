import { KeyObject, createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import { DecodedCursor, Primitive } from '@brand/core';
import { SharedSecrets } from '@brand/persistence-kysely';

/** The name of the shared secret that signs cursors; every process reads the same one from storage. */
export const CURSOR_KEY_NAME = 'cursor-signing-key';

/** What a cursor carries: the list (resource), the sort it was made with, and the last row's sort values. */
interface CursorPayload {
  r: string;
  s: string;
  v: Primitive[];
}

function isPrimitive(value: unknown): value is Primitive {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function isPayload(value: unknown): value is CursorPayload {
  if (value === null || typeof value !== 'object') return false;
  const { r, s, v } = value as Record<string, unknown>;
  return typeof r === 'string' && typeof s === 'string' && Array.isArray(v) && v.every(isPrimitive);
}

/**
 * Opaque list cursors: base64url JSON of the position, a dot, and an HMAC-SHA256 of it. The key
 * lives in the database, so a cursor made by one process is accepted by any other. A cursor that
 * was forged, garbled or signed with another key decodes to `undefined`, which the core reports
 * as "cursor is not valid".
 */
export class CursorCodec {
  private key: Promise<KeyObject> | null = null;

  constructor(private readonly secrets: SharedSecrets) {}

  async encode(cursor: DecodedCursor): Promise<string> {
    const payload: CursorPayload = { r: cursor.resource, s: cursor.sort, v: cursor.values };
    const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
    return `${body}.${(await this.sign(body)).toString('base64url')}`;
  }

  async decode(raw: unknown): Promise<DecodedCursor | undefined> {
    if (typeof raw !== 'string') return undefined;
    const [body, signature, ...rest] = raw.split('.');
    if (!body || !signature || rest.length > 0) return undefined;
    const expected = await this.sign(body);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      return isPayload(payload) ? { resource: payload.r, sort: payload.s, values: payload.v } : undefined;
    } catch {
      return undefined;
    }
  }

  private async sign(body: string): Promise<Buffer> {
    // Memoised per process as a key object (an HMAC given raw bytes imports them again on every
    // call, a large part of the cost of signing); a failed load is forgotten so the next request tries again.
    this.key ??= this.secrets
      .getOrCreate(CURSOR_KEY_NAME, () => randomBytes(32).toString('base64url'))
      .then((secret) => createSecretKey(Buffer.from(secret, 'base64url')))
      .catch((error: unknown) => {
        this.key = null;
        throw error;
      });
    return createHmac('sha256', await this.key)
      .update(body)
      .digest();
  }
}
