/** @brand/api: the HTTP API as an Express app (`createApp`), its configuration, and the Node adapters it runs with. */
export { createApp, requestLogOf, API_VERSION } from './app';
export type { AppDeps } from './app';
export { loadConfig, DEFAULT_CONFIG } from './config';
export { serverNodeFlags } from './server-node-flags';
export { isHealthProbe, requestsInTurn } from './http/requests-in-turn';
export type { AppConfig } from './config';
export { nodeSecretHasher } from './infrastructure/node-secret-hasher';
export { nodePasswordHasher } from './infrastructure/node-password-hasher';
export { HttpImageFetcher } from './infrastructure/http-image-fetcher';
export type { HttpImageFetcherOptions, HostResolver } from './infrastructure/http-image-fetcher';
export { AddressPolicy, addressRange } from './infrastructure/address-policy';
export { LocalFolderBlobStore } from './infrastructure/local-folder-blob-store';
export { imageServicesFrom } from './infrastructure/image-services';
export type { ImageServices } from './infrastructure/image-services';
export { startWebhookDispatcherFor } from './infrastructure/webhook-services';
export { ApiMetrics } from './metrics/api-metrics';
export { listenForScrapes } from './metrics/metrics-listener';
export { HttpWebhookSender, webhookSignature } from './infrastructure/http-webhook-sender';
