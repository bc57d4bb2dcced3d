export * from './types.js';
export type { components, operations, paths, webhooks } from './api-types.js';
export * from './signing.js';
export * from './webhooks.js';
export * from './client.js';
