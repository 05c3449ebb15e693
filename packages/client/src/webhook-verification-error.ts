/** Why a webhook delivery was refused. */
export type WebhookVerificationFailure =
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_signature'
  | 'invalid_body';

/** A delivery that is not provably from the API, or not recent: answer it with a 4xx and ignore it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}
