/**
 * @brand/client: a typed client for the Brand commerce platform API. `createClient` gives typed
 * calls for every path of the API's OpenAPI document, with idempotency keys, bounded retries,
 * OAuth refresh, ETags and cursor pagination; `verifyWebhook` checks and types webhook deliveries.
 */
export { createClient } from './create-client';
export type { BrandClient, MethodCall } from './create-client';
export type { ClientOptions } from './client-options';
export type { OAuthOptions, OAuthTokens } from './oauth-session';
export type { RetryPolicy } from './retry-policy';
export { DEFAULT_RETRY_POLICY } from './retry-policy';
export type { ApiResult, FreshResult, NotModifiedResult } from './api-result';
export type { CallOptions, HttpMethod, PathsWith, RequestOptions, SuccessData } from './typed-paths';
export type { ListPath, ListPage, ListItem } from './paginate';
export { BrandApiError, BrandNetworkError, REQUEST_ID_HEADER } from './brand-api-error';
export type { ApiErrorObject } from './brand-api-error';
export { BrandOAuthError } from './brand-oauth-error';
export { APP_KEY_HEADER, IDEMPOTENCY_KEY_HEADER } from './transport';
export { verifyWebhook } from './verify-webhook';
export type { VerifyWebhookOptions, WebhookHeaders } from './verify-webhook';
export { WebhookVerificationError } from './webhook-verification-error';
export type { WebhookVerificationFailure } from './webhook-verification-error';
export type { BrandEvent, BrandEventType, BrandEventObject } from './brand-event';
export type { paths, components, operations } from './generated/api';
