import { createHmac } from 'node:crypto';
import http, { IncomingMessage } from 'node:http';
import https from 'node:https';
import { WebhookAttempt, WebhookAttemptOutcome, WebhookSender } from '@brand/core';
import { presentEvent } from '../presenters/event.presenter';
import { AddressPolicy } from './address-policy';
import {
  HostResolver,
  TargetRefused,
  VettedTarget,
  networkFailure,
  pinnedLookup,
  systemResolver,
  vetTarget,
} from './guarded-connection';

export interface HttpWebhookSenderOptions {
  /** One attempt (resolving, connecting, sending, the answer's status line and headers) must finish within this. */
  timeoutMs: number;
  /** Which targets may be reached; private and special-purpose addresses only when allowlisted. */
  policy: AddressPolicy;
  resolve?: HostResolver;
}

const USER_AGENT = 'BrandCommercePlatform-Webhooks/1.0';

/**
 * The Standard Webhooks signature header: `v1,` and the base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}` keyed with the base64-decoded part of each `whsec_` secret,
 * space-separated when several secrets sign (after a rotation).
 */
export function webhookSignature(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

/**
 * Delivers webhook events over HTTP(S): the event as the feed presents it, POSTed as JSON with the
 * Standard Webhooks headers (`webhook-id` = the event id, the same on every attempt;
 * `webhook-timestamp`; `webhook-signature`). Only a 2xx answer is a delivery; a redirect is a
 * failure (never followed: the target was vetted, its redirect would not be), as are an answer
 * later than the deadline and a target the address policy refuses. The connection is pinned to the
 * vetted address. The answer's body is not read beyond what the socket already holds.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly resolve: HostResolver;

  constructor(private readonly options: HttpWebhookSenderOptions) {
    this.resolve = options.resolve ?? systemResolver;
  }

  async send(attempt: WebhookAttempt): Promise<WebhookAttemptOutcome> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('deadline')), this.options.timeoutMs);
    try {
      let url: URL;
      try {
        url = new URL(attempt.url);
      } catch {
        return { delivered: false, statusCode: null, error: 'the endpoint URL is not a valid absolute URL' };
      }
      const target = await vetTarget(url, this.options.policy, this.resolve, controller.signal);
      const event = presentEvent(attempt.event);
      const body = JSON.stringify(event);
      const response = await this.post(
        target,
        body,
        {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': event.id,
          'webhook-timestamp': String(attempt.timestamp),
          'webhook-signature': webhookSignature(attempt.secrets, event.id, attempt.timestamp, body),
        },
        controller.signal,
      );
      const status = response.statusCode ?? 0;
      response.resume();
      if (status >= 200 && status < 300) return { delivered: true, statusCode: status };
      return {
        delivered: false,
        statusCode: status,
        error:
          status >= 300 && status < 400
            ? `the endpoint answered ${status} (a redirect, which deliveries do not follow)`
            : `the endpoint answered ${status}`,
      };
    } catch (error) {
      if (controller.signal.aborted)
        return { delivered: false, statusCode: null, error: `no answer within ${this.options.timeoutMs} ms` };
      if (error instanceof TargetRefused)
        return { delivered: false, statusCode: null, error: `the endpoint may not be reached: ${error.reason}` };
      return { delivered: false, statusCode: null, error: networkFailure(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  private post(
    target: VettedTarget,
    body: string,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    const { url, address, family } = target;
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const request = client.request(
        {
          method: 'POST',
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          // A fresh connection per attempt: no pooled socket of another lookup is reused.
          agent: false,
          lookup: pinnedLookup(address, family),
          signal,
        },
        resolve,
      );
      request.on('error', reject);
      request.end(body);
    });
  }
}
