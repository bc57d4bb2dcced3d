// A record's status route and its alias `fetch` (the original provider's name): one signed read of a
// payment or payout by transactionRef or merchantRef, answered with the record. Both kinds register
// the pair here, so the alias can never drift from the route it stands for.
import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Merchant } from '../merchants/merchant-service.js';
import { ok } from '../http/envelope.js';
import { merchantOf, DATABASE_READ } from './merchant-request.js';
import { MERCHANT_SECURITY, merchantErrors, notFound, SuccessEnvelope } from './schemas/responses.js';
import { ref, type Shared } from './schemas/shared.js';

type Api = FastifyInstance<any, any, any, any, TypeBoxTypeProvider>;

export interface RecordLookup<B extends TSchema> {
  readonly kind: 'payment' | 'payout';
  /** The shared schema of the record answered. */
  readonly record: Shared<TSchema>;
  readonly body: B;
  lookup(merchant: Merchant, body: Static<B>): Promise<unknown>;
}

export function registerRecordLookup<B extends TSchema>(app: Api, spec: RecordLookup<B>): void {
  const { kind } = spec;
  for (const verb of ['status', 'fetch'] as const) {
    app.post(
      `/${kind}/${verb}`,
      {
        config: DATABASE_READ,
        schema: {
          operationId: `${kind}${verb === 'status' ? 'Status' : 'Fetch'}`,
          tags: [kind],
          summary: verb === 'status' ? `A ${kind} by transactionRef or merchantRef` : `Same as ${kind}/status (the original provider's name)`,
          security: MERCHANT_SECURITY,
          body: spec.body,
          response: { 200: SuccessEnvelope(ref(spec.record), `The ${kind} record.`), ...merchantErrors, 404: notFound(kind) },
        },
      },
      async (request) => ok(await spec.lookup(merchantOf(request), request.body as Static<B>)),
    );
  }
}
