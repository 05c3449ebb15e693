import { createHmac, timingSafeEqual } from 'node:crypto';
import type { BrandEvent } from './brand-event';
import { WebhookVerificationError } from './webhook-verification-error';

/** Request headers as Node (`req.headers`), fetch (`Headers`) or a plain object carry them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** How far the `webhook-timestamp` may be from now, either way; 300 (five minutes) by default. */
  toleranceSeconds?: number;
  /** The time to check against; the current time by default. */
  now?: Date;
}

const SECRET_PREFIX = 'whsec_';

function headerOf(headers: WebhookHeaders, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  if (value === undefined) return null;
  return typeof value === 'string' ? value : (value[0] ?? null);
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** The `v1` signatures of the header (`v1,<base64> v1,<base64>`), decoded; other versions are ignored. */
function v1Signatures(header: string): Buffer[] {
  return header
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice('v1,'.length), 'base64'));
}

/**
 * Checks a webhook delivery (Standard Webhooks) and returns its event. The signature is the HMAC-
 * SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64 part of a
 * `whsec_` secret; any of `secrets` may match (pass the old and the new secret while a rotation
 * is under way), compared in constant time. The timestamp must lie within the tolerance of now,
 * so a captured delivery cannot be replayed later.
 *
 * Pass the body exactly as received (the bytes, or their text), not a re-serialised object: a
 * single changed byte changes the signature.
 *
 * @throws WebhookVerificationError when a header is missing, the timestamp is out of tolerance,
 *   no signature matches, or the body is not an event.
 */
export function verifyWebhook(
  secrets: string | readonly string[],
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): BrandEvent {
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signature = headerOf(headers, 'webhook-signature');
  if (!id || !timestamp || !signature)
    throw new WebhookVerificationError(
      'missing_headers',
      'The webhook-id, webhook-timestamp and webhook-signature headers are required',
    );
  if (!/^\d{1,12}$/.test(timestamp))
    throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not a number of seconds');

  const toleranceSeconds = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const skew = nowSeconds - Number(timestamp);
  if (skew > toleranceSeconds)
    throw new WebhookVerificationError('timestamp_too_old', `The delivery is ${skew} s old, over the tolerance`);
  if (-skew > toleranceSeconds)
    throw new WebhookVerificationError(
      'timestamp_too_new',
      `The delivery is ${-skew} s in the future, over the tolerance`,
    );

  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
  const received = v1Signatures(signature);
  const matches = (typeof secrets === 'string' ? [secrets] : secrets).some((secret) => {
    const expected = createHmac('sha256', keyOf(secret)).update(signed).digest();
    // timingSafeEqual needs equal lengths; a length says nothing about the key.
    return received.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  });
  if (!matches) throw new WebhookVerificationError('invalid_signature', 'No signature matches the secrets given');

  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The body is not JSON');
  }
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string')
    throw new WebhookVerificationError('invalid_body', 'The body is not an event');
  return event as BrandEvent;
}
