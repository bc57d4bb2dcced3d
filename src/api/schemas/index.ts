// Every shared schema, registered once with the app so routes can reference them and the OpenAPI
// document lists them under components.schemas.
import { ADMIN_SCHEMAS } from './admin.js';
import { ENUM_SCHEMAS } from './enums.js';
import { PAYMENT_SCHEMAS } from './payment.js';
import { PAYOUT_SCHEMAS } from './payout.js';
import { PAYOUT_BATCH_SCHEMAS } from './payout-batch.js';
import { REPORTING_SCHEMAS } from './reporting.js';
import { ErrorReason, ErrorSchema } from './responses.js';
import { WEBHOOK_SCHEMAS } from './webhook.js';

export const SHARED_SCHEMAS = [...ENUM_SCHEMAS, ErrorReason, ErrorSchema, ...PAYMENT_SCHEMAS, ...PAYOUT_SCHEMAS, ...PAYOUT_BATCH_SCHEMAS, ...WEBHOOK_SCHEMAS, ...ADMIN_SCHEMAS, ...REPORTING_SCHEMAS];

/** Registers them on an app's root, before any route that references them. */
export function registerSharedSchemas(app: { addSchema(schema: unknown): unknown }): void {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
}
