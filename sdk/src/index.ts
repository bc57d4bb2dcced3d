export * from './types.js';
export * from './signing.js';
export * from './webhooks.js';
export * from './client.js';
