import { DomainEvent } from '../events/event.entities';

/** One attempt to deliver an event to an endpoint. */
export interface WebhookAttempt {
  url: string;
  event: DomainEvent;
  /** The secrets to sign with: the endpoint's, and the rotated one while it is still valid. */
  secrets: string[];
  /** The attempt's instant, unix seconds (`webhook-timestamp`). */
  timestamp: number;
}

/** What came of an attempt: a 2xx answer, or why not (the status when there was an answer). */
export type WebhookAttemptOutcome =
  | { delivered: true; statusCode: number }
  | { delivered: false; statusCode: number | null; error: string };

/**
 * Sends webhook deliveries: POSTs the event (as the API presents it) to the URL, signed with every
 * secret given, within a deadline, following no redirect, and only to addresses the policy
 * allows. Never throws for what the receiver or the network did: that is an outcome.
 */
export interface WebhookSender {
  send(attempt: WebhookAttempt): Promise<WebhookAttemptOutcome>;
}
