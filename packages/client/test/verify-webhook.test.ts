import { createHmac, randomBytes } from 'node:crypto';
import { BrandEvent, WebhookVerificationError, verifyWebhook } from '../src';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Signs as the API does (apps/api's webhookSignature): `v1,<base64 HMAC>` per secret, space-separated. */
function sign(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

const now = new Date('2026-03-01T09:00:00Z');
const nowSeconds = now.getTime() / 1000;
const body = JSON.stringify({
  id: 'evt_42',
  type: 'order.approved',
  created_at: '2026-03-01T08:59:59.000Z',
  data: { object: { id: 7, status: 'approved' } },
});

function delivery(secrets: string[], options: { timestamp?: number; body?: string } = {}) {
  const timestamp = options.timestamp ?? nowSeconds;
  return {
    'webhook-id': 'evt_42',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secrets, 'evt_42', timestamp, options.body ?? body),
  };
}

function failureOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return undefined;
}

describe('verifyWebhook', () => {
  const secret = newSecret();

  it('returns the event of a delivery signed with the secret', () => {
    const event = verifyWebhook(secret, delivery([secret]), body, { now });

    expect(event).toMatchObject({ id: 'evt_42', type: 'order.approved', data: { object: { id: 7 } } });
  });

  it('accepts the raw bytes and fetch Headers as well', () => {
    const event = verifyWebhook(secret, new Headers(delivery([secret])), Buffer.from(body), { now });

    expect(event.id).toBe('evt_42');
  });

  it('accepts a delivery signed with the new and the old secret during a rotation, with either', () => {
    const rotated = newSecret();
    const headers = delivery([rotated, secret]);

    expect(verifyWebhook(secret, headers, body, { now }).id).toBe('evt_42');
    expect(verifyWebhook([newSecret(), rotated], headers, body, { now }).id).toBe('evt_42');
  });

  it('refuses a delivery signed with another secret', () => {
    expect(failureOf(() => verifyWebhook(secret, delivery([newSecret()]), body, { now }))).toBe('invalid_signature');
  });

  it('refuses a tampered body', () => {
    const tampered = body.replace('"approved"', '"cancelled"');

    expect(failureOf(() => verifyWebhook(secret, delivery([secret]), tampered, { now }))).toBe('invalid_signature');
  });

  it('refuses a delivery older or newer than the tolerance, and takes one just within it', () => {
    const at = (offset: number) => () =>
      verifyWebhook(secret, delivery([secret], { timestamp: nowSeconds + offset }), body, { now });

    expect(failureOf(at(-301))).toBe('timestamp_too_old');
    expect(failureOf(at(301))).toBe('timestamp_too_new');
    expect(failureOf(at(-300))).toBeUndefined();
    expect(failureOf(at(300))).toBeUndefined();
    expect(
      failureOf(() =>
        verifyWebhook(secret, delivery([secret], { timestamp: nowSeconds - 60 }), body, { now, toleranceSeconds: 30 }),
      ),
    ).toBe('timestamp_too_old');
  });

  it('refuses a delivery without its headers', () => {
    const { 'webhook-signature': _, ...unsigned } = delivery([secret]);

    expect(failureOf(() => verifyWebhook(secret, unsigned, body, { now }))).toBe('missing_headers');
  });

  it('types the object by the event type', () => {
    const event: BrandEvent = verifyWebhook(secret, delivery([secret]), body, { now });

    switch (event.type) {
      case 'order.approved': {
        // The order's fields, known to the compiler from the OpenAPI document.
        const status: string = event.data.object.status;
        expect(status).toBe('approved');
        break;
      }
      default:
        throw new Error(`unexpected ${event.type}`);
    }
  });
});
