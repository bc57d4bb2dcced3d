// JSON schemas of the simulator's request bodies: Fastify rejects anything else with 400 before a
// handler runs, so the books only ever see well-formed references and amounts.
const ref = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' } as const;
const amountMinor = { type: 'string', pattern: '^[1-9][0-9]{0,17}$' } as const;
const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;

const object = (properties: Record<string, object>, required: readonly string[]) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  required,
});

export const routeSchemas = {
  createCollection: {
    body: object(
      {
        transactionRef: ref,
        merchantId: { type: 'string', minLength: 1, maxLength: 64 },
        currency: text(3),
        method: text(16),
        amountMinor,
        payerName: text(256),
        payerEmail: text(256),
        payerPhone: text(32),
        expiresAtMs: { type: 'integer', minimum: 0 },
      },
      ['transactionRef', 'merchantId', 'currency', 'method', 'amountMinor', 'payerName', 'payerEmail', 'payerPhone', 'expiresAtMs'],
    ),
  },
  refund: { body: object({ amountMinor }, ['amountMinor']) },
  complete: {
    body: object({ outcome: { type: 'string', enum: ['Success', 'Failed'] }, paidAmountMinor: amountMinor }, ['outcome']),
  },
  resolveAccount: {
    body: object(
      {
        currency: text(3),
        method: text(16),
        bankCode: { type: ['string', 'null'], maxLength: 32 },
        account: { type: 'string', minLength: 1, maxLength: 128 },
      },
      ['currency', 'method', 'bankCode', 'account'],
    ),
  },
  submitPayout: {
    body: object(
      {
        transactionRef: ref,
        currency: text(3),
        method: text(16),
        amountMinor,
        bankCode: { type: ['string', 'null'], maxLength: 32 },
        account: { type: 'string', minLength: 1, maxLength: 128 },
        name: text(256),
        phone: text(32),
        email: text(256),
      },
      ['transactionRef', 'currency', 'method', 'amountMinor', 'bankCode', 'account', 'name', 'phone', 'email'],
    ),
  },
} as const;
