// The merchant's reporting calls: payment/list, payout/list, account/statement, account/settlements,
// report/create and report/status. Reads only (key scope read); each answers this merchant's own data.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../http/envelope.js';
import { sendPage, type ListRecordCaches } from './list-rendering.js';
import type { ReportingService } from '../reporting/service.js';
import { DATABASE_READ, merchantOf } from './merchant-request.js';
import {
  PaymentListBody,
  PaymentPage,
  PayoutListBody,
  PayoutPage,
  Report,
  ReportCreateBody,
  ReportStatusBody,
  Settlements,
  SettlementsBody,
  StatementBody,
  StatementPage,
} from './schemas/reporting.js';
import { errorResponse, MERCHANT_SECURITY, merchantErrors, SuccessEnvelope } from './schemas/responses.js';
import { ref } from './schemas/shared.js';

export interface ReportingRouteOptions {
  readonly reporting: Pick<ReportingService, 'listRendered' | 'statement' | 'settlements' | 'createReport' | 'reportStatus'>;
  /** The lists' rendered records (one pair per app, also counted on /metrics). */
  readonly listRecords: ListRecordCaches;
}

const CURSOR_RULES =
  'Newest first by creation time. nextCursor is opaque and bound to your merchant and these filters (only limit may change); ' +
  'a cursor altered, older than 24 hours, or sent with other filters is 400 VALIDATION_FAILED. A ref of another merchant matches nothing.';

export const reportingRoutes: FastifyPluginAsyncTypebox<ReportingRouteOptions> = async (app, { reporting, listRecords }) => {
  app.post(
    '/payment/list',
    {
      config: DATABASE_READ,
      schema: {
        operationId: 'paymentList',
        tags: ['payment'],
        summary: 'Your payments, filtered, a page at a time',
        description: CURSOR_RULES,
        security: MERCHANT_SECURITY,
        body: PaymentListBody,
        response: { 200: SuccessEnvelope(ref(PaymentPage), 'One page of payment records, newest first.'), ...merchantErrors },
      },
    },
    async (request, reply) => sendPage(reply, await reporting.listRendered('payments', merchantOf(request).id, request.body, listRecords.payments)),
  );

  app.post(
    '/payout/list',
    {
      config: DATABASE_READ,
      schema: {
        operationId: 'payoutList',
        tags: ['payout'],
        summary: 'Your payouts, filtered, a page at a time',
        description: CURSOR_RULES,
        security: MERCHANT_SECURITY,
        body: PayoutListBody,
        response: { 200: SuccessEnvelope(ref(PayoutPage), 'One page of payout records, newest first.'), ...merchantErrors },
      },
    },
    async (request, reply) => sendPage(reply, await reporting.listRendered('payouts', merchantOf(request).id, request.body, listRecords.payouts)),
  );

  app.post(
    '/account/statement',
    {
      config: DATABASE_READ,
      schema: {
        operationId: 'accountStatement',
        tags: ['account'],
        summary: 'Every movement of your balances in one currency, with the balance after each',
        description:
          'Newest first; an entry that moves several buckets gives one line per bucket. balanceAfter of the newest line ' +
          `equals account/balance at that moment. ${CURSOR_RULES}`,
        security: MERCHANT_SECURITY,
        body: StatementBody,
        response: { 200: SuccessEnvelope(ref(StatementPage), 'One page of movements, newest first.'), ...merchantErrors },
      },
    },
    async (request) => ok(await reporting.statement(merchantOf(request).id, request.body)),
  );

  app.post(
    '/account/settlements',
    {
      config: DATABASE_READ,
      schema: {
        operationId: 'accountSettlements',
        tags: ['account'],
        summary: 'Per UTC day: collected, refunded, paid out, fees, and what settled from pending to available',
        security: MERCHANT_SECURITY,
        body: SettlementsBody,
        response: { 200: SuccessEnvelope(ref(Settlements), 'The totals per day, newest first.'), ...merchantErrors },
      },
    },
    async (request) => ok(await reporting.settlements(merchantOf(request).id, request.body)),
  );

  app.post(
    '/report/create',
    {
      // It records a request (state), reads only: a read key may ask for exports.
      config: { changesState: true, keyScope: 'read', movesMoney: false },
      schema: {
        operationId: 'reportCreate',
        tags: ['report'],
        summary: 'Ask for a CSV export of your payments, payouts, statement or settlements over a range',
        description:
          'Answers at once with the report (Pending); a background job writes the file. The same request again within 10 minutes ' +
          'answers that report (unless it failed), so a retry never makes a second export; later, a fresh one is made.',
        security: MERCHANT_SECURITY,
        body: ReportCreateBody,
        response: { 200: SuccessEnvelope(ref(Report), 'The report, Pending (or the earlier one for the same request).'), ...merchantErrors },
      },
    },
    async (request) => ok(await reporting.createReport(merchantOf(request).id, request.body)),
  );

  app.post(
    '/report/status',
    {
      config: DATABASE_READ,
      schema: {
        operationId: 'reportStatus',
        tags: ['report'],
        summary: 'Where a report stands, with a download URL once it is Ready',
        security: MERCHANT_SECURITY,
        body: ReportStatusBody,
        response: {
          200: SuccessEnvelope(ref(Report), 'The report; downloadUrl when Ready (a fresh 15-minute link on every call).'),
          ...merchantErrors,
          404: errorResponse('NOT_FOUND: no such report for this merchant (another merchant\'s looks the same).'),
        },
      },
    },
    async (request) => ok(await reporting.reportStatus(merchantOf(request).id, request.body.reportId)),
  );
};
