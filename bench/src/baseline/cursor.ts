import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import { Sqlite } from './database';

type Primitive = string | number | boolean | null;

/** A verified cursor: the list it belongs to, the sort it was made with, the last row's sort values. */
export interface Cursor {
  resource: string;
  sort: string;
  values: Primitive[];
}

/** The shared secret the project signs cursors with (apps/api/src/listing/cursor-codec.ts). */
export const CURSOR_KEY_NAME = 'cursor-signing-key';

const isPrimitive = (value: unknown): value is Primitive =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * The project's cursor format: base64url JSON `{r, s, v}`, a dot, and the base64url HMAC-SHA256
 * of the first part under the key stored in `shared_secrets` (made by whichever process needs it
 * first). A cursor signed by either server on the same database is good on both.
 */
export function cursorCodec(db: Sqlite): CursorCodec {
  db.prepare('insert into shared_secrets (name, value) values (?, ?) on conflict (name) do nothing').run(
    CURSOR_KEY_NAME,
    newCursorKey(),
  );
  const secret = db.prepare<[string], string>('select value from shared_secrets where name = ?').pluck();
  return cursorCodecOf(secret.get(CURSOR_KEY_NAME)!);
}

export interface CursorCodec {
  encode: (cursor: Cursor) => string;
  decode: (raw: unknown) => Cursor | undefined;
}

/** A new cursor key, stored by whichever process needs one first. */
export const newCursorKey = (): string => randomBytes(32).toString('base64url');

/** The codec of the stored key (base64url). */
export function cursorCodecOf(storedKey: string): CursorCodec {
  const key = createSecretKey(Buffer.from(storedKey, 'base64url'));
  const sign = (body: string): Buffer => createHmac('sha256', key).update(body).digest();

  return {
    encode: ({ resource, sort, values }) => {
      const body = Buffer.from(JSON.stringify({ r: resource, s: sort, v: values }), 'utf8').toString('base64url');
      return `${body}.${sign(body).toString('base64url')}`;
    },
    decode: (raw) => {
      if (typeof raw !== 'string') return undefined;
      const [body, signature, ...rest] = raw.split('.');
      if (!body || !signature || rest.length > 0) return undefined;
      const expected = sign(body);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      try {
        const { r, s, v } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
        return typeof r === 'string' && typeof s === 'string' && Array.isArray(v) && v.every(isPrimitive)
          ? { resource: r, sort: s, values: v }
          : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
