// POST /v1/callbacks/:channel: upstream notifications. Not under /v1/api and not merchant-signed:
// the channel itself authenticates each one from the raw bytes (parseCallback), then the news is
// applied idempotently, so a duplicate or replayed notification changes nothing.
import { Type } from '@sinclair/typebox';
import { Text } from '../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Channel, PayoutState } from '../connectors/channel.js';
import type { PaymentService } from '../domain/payments/service.js';
import { ok } from '../http/envelope.js';

/** Where payout news goes once payouts (issue 5) exist. */
export interface PayoutStateSink {
  applyPayoutState(transactionRef: string, state: PayoutState, fromChannel: string): Promise<unknown>;
}

export interface CallbackRoutesOptions {
  readonly channels: { byName(name: string): Channel };
  readonly payments: Pick<PaymentService, 'applyCollectionState'>;
  readonly payouts?: PayoutStateSink;
}

const Params = Type.Object({ channel: Text({ minLength: 1, maxLength: 32 }) });

export const callbackRoutes: FastifyPluginAsyncTypebox<CallbackRoutesOptions> = async (app, options) => {
  app.post(
    '/v1/callbacks/:channel',
    {
      // Internal: only upstreams call it, so it stays out of the merchant's OpenAPI document.
      schema: { hide: true, params: Params },
    },
    async (request) => {
      const channel = options.channels.byName(request.params.channel);
      const callback = channel.parseCallback(request.headers, request.rawBody ?? Buffer.alloc(0));
      if (callback.kind === 'ignored') {
        request.log.info({ channel: channel.name, reason: callback.reason }, 'upstream notification needs no action; acknowledged');
      } else if (callback.kind === 'collection') {
        await options.payments.applyCollectionState(callback.transactionRef, callback.state, channel.name);
      } else if (options.payouts) {
        await options.payouts.applyPayoutState(callback.transactionRef, callback.state, channel.name);
      } else {
        request.log.warn({ channel: channel.name, transactionRef: callback.transactionRef }, 'payout callback before payouts exist; acknowledged');
      }
      return ok({});
    },
  );
};
