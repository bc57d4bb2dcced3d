// GET /v1/reports/<id>/download?expires=..&sig=..: the CSV of a ready report, streamed from its file.
// Unsigned by headers on purpose (a browser or curl can follow it): the link itself carries a MAC and
// an expiry, and anything wrong with it is a plain 404 that says nothing about the report.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ReportingService } from '../reporting/service.js';
import { errorResponse } from './schemas/responses.js';

export interface ReportDownloadRouteOptions {
  readonly reporting: Pick<ReportingService, 'openDownload'>;
}

export const reportDownloadRoutes: FastifyPluginAsyncTypebox<ReportDownloadRouteOptions> = async (app, { reporting }) => {
  app.get(
    '/v1/reports/:reportId/download',
    {
      schema: {
        operationId: 'reportDownload',
        tags: ['report'],
        summary: 'The CSV of a ready report, through the link report/status answered',
        params: Type.Object({ reportId: Type.String({ maxLength: 64 }) }),
        // Optional here so that a link missing a part is the same 404 as a wrong one, not a 400 that tells them apart.
        querystring: Type.Object({ expires: Type.Optional(Type.String({ maxLength: 16 })), sig: Type.Optional(Type.String({ maxLength: 64 })) }),
        response: {
          200: {
            description: 'The CSV: a header row, then one row per record (RFC 4180).',
            content: { 'text/csv': { schema: Type.String() } },
          },
          404: errorResponse('NOT_FOUND: the link is wrong or expired, or the report is not (or no longer) ready.'),
        },
      },
    },
    async (request, reply) => {
      const { reportId } = request.params;
      const file = await reporting.openDownload(reportId, request.query.expires ?? '', request.query.sig ?? '');
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('content-length', String(file.sizeBytes))
        .header('cache-control', 'no-store')
        // Fastify pipes a stream as is (no serializer); the schema above only documents the CSV.
        .send(file.stream as unknown as string);
    },
  );
};
