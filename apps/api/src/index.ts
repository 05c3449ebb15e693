/** @brand/api: the HTTP API as an Express app (`createApp`), its configuration, and the Node adapters it runs with. */
export { createApp, requestLogOf, API_VERSION } from './app';
export type { AppDeps } from './app';
export { loadConfig, DEFAULT_CONFIG } from './config';
export type { AppConfig } from './config';
export { nodeSecretHasher } from './infrastructure/node-secret-hasher';
