import { isEventType } from '../events/event.entities';
import { SecretHasher } from '../identity/identity.ports';
import { ViolationList } from '../shared/errors';
import { ALL_EVENTS } from './webhook.entities';

/** The longest URL an endpoint may have. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** The longest description an endpoint may have (a note for people, not a document). */
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 1000;

/**
 * Checks an endpoint's URL: absolute http or https, no user name or password in it (a secret in a
 * URL ends up in logs), at most 2048 characters. Whether its host may be reached is decided at
 * delivery, against the address policy, when the name is resolved.
 */
export function checkWebhookUrl(url: string, violations: ViolationList): void {
  if (url.length > MAX_WEBHOOK_URL_LENGTH)
    violations.add('/url', `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  else if (!/^https?:\/\/[^/?#\s]+(?:[/?#]\S*)?$/i.test(url))
    violations.add('/url', 'must be an absolute http or https URL such as https://erp.example.com/hooks');
  else if (/^https?:\/\/[^/?#]*@/i.test(url)) violations.add('/url', 'must not carry a user name or password');
}

/**
 * Checks an endpoint's description (already trimmed): at most 1000 characters. Here rather than in
 * the API's request shape, so that every way of making an endpoint (the API, the console) holds it.
 */
export function checkWebhookDescription(description: string | null, violations: ViolationList): void {
  if (description !== null && description.length > MAX_WEBHOOK_DESCRIPTION_LENGTH)
    violations.add('/description', `must be at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters`);
}

/** Checks the subscribed types: at least one, each a known event type, or `*` alone; answers them without repeats. */
export function checkSubscribedEvents(events: string[], violations: ViolationList): string[] {
  if (events.length === 0) violations.add('/events', 'must name at least one event type, or * for all');
  events.forEach((type, i) => {
    if (type !== ALL_EVENTS && !isEventType(type))
      violations.add(`/events/${i}`, `${JSON.stringify(type)} is not an event type`);
  });
  if (events.includes(ALL_EVENTS) && events.length > 1)
    violations.add('/events', 'names * (every type) together with other types; send * alone');
  return [...new Set(events)];
}

/** A new signing secret: `whsec_` and the standard base64 of 32 random bytes (Standard Webhooks' form). */
export function newWebhookSecret(hasher: SecretHasher): string {
  return `whsec_${hasher.randomKey()}`;
}
