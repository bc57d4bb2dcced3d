// Operator API for reconciliation (docs/reconciliation.md): import an upstream's statement, list the
// runs and their lines (the unresolved ones are the worklist), and resolve a line with a reason.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { dayStartOf } from '../../core/days.js';
import { AppError } from '../../core/errors.js';
import { ok } from '../../http/envelope.js';
import { Text } from '../../http/text.js';
import { RECONCILIATION_OUTCOMES } from '../../reconciliation/reconciliation-rows.js';
import { RECON_PAGE_MAX, STATEMENT_MAX_BYTES, type ReconciliationService } from '../../reconciliation/service.js';
import { errorResponse, SuccessEnvelope } from '../schemas/responses.js';
import { ADMIN_ACTOR } from './auth.js';

const CSV_MEDIA_TYPE = 'text/csv';
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Outcome = Type.Union(RECONCILIATION_OUTCOMES.map((o) => Type.Literal(o)));
const Limit = Text({ pattern: '^[1-9][0-9]{0,2}$', description: `1 to ${RECON_PAGE_MAX}, default 50` });
const Cursor = Text({ minLength: 1, maxLength: 80, description: 'nextCursor of the previous page' });
const Id = Text({ minLength: 1, maxLength: 80 });

const Counts = Type.Object(Object.fromEntries(RECONCILIATION_OUTCOMES.map((o) => [o, Type.Integer()])));
const Run = Type.Object({
  id: Type.String(),
  connector: Type.String(),
  day: Type.String({ examples: ['2026-11-22'] }),
  fileName: Type.String(),
  checksum: Type.String({ description: 'sha256 hex of the file: the same file imported again answers this run' }),
  source: Type.Union([Type.Literal('import'), Type.Literal('fetch')]),
  periodFrom: Type.String(),
  periodTo: Type.String(),
  expects: Type.Array(Type.String(), { description: 'kinds of our records the statement must list (missing_theirs); empty: none' }),
  importedAt: Type.String(),
  actor: Type.String(),
  lines: Type.Integer({ description: "the statement's lines" }),
  counts: Counts,
  unresolved: Type.Integer({ description: 'lines not matched and not yet resolved' }),
});
const Side = (mapped: TSchema) => Nullable(Type.Object({ currency: Type.String(), amountMinor: Type.String({ description: 'minor units, decimal string' }), status: Type.String(), mappedStatus: mapped }));
const Line = Type.Object({
  id: Type.String(),
  runId: Type.String(),
  lineNumber: Nullable(Type.Integer()),
  outcome: Outcome,
  kind: Type.String({ examples: ['payment', 'payout', 'refund'] }),
  upstreamRef: Nullable(Type.String()),
  transactionRef: Nullable(Type.String()),
  merchantId: Nullable(Type.String()),
  theirs: Side(Type.String()),
  ours: Side(Nullable(Type.String())),
  resolvedAt: Nullable(Type.String()),
  resolvedBy: Nullable(Type.String()),
  reason: Nullable(Type.String()),
});

/** The import's body; the console's import form is checked with it too. */
export const ImportBody = Type.Object(
  {
    connector: Text({ minLength: 1, maxLength: 40, examples: ['simulator'] }),
    day: Text({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: "the statement's UTC day" }),
    fileName: Type.Optional(Text({ minLength: 1, maxLength: 200 })),
    content: Text({ multiline: true, minLength: 1, maxLength: STATEMENT_MAX_BYTES, description: "the file's text, in the connector's statement format" }),
  },
  { additionalProperties: false },
);

/** A fetch of one day; also the console's "fetch a day" form. */
export const FetchBody = Type.Object(
  { connector: Text({ minLength: 1, maxLength: 40 }), day: Text({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: "the statement's UTC day" }) },
  { additionalProperties: false },
);

/** A resolution's reason; also the console's resolve form. */
export const ResolveBody = Type.Object({ reason: Text({ minLength: 1, maxLength: 500, description: 'Why the difference is settled; kept with the line and in the audit log' }) }, { additionalProperties: false });

export interface AdminReconciliationRouteOptions {
  readonly reconciliation: Pick<ReconciliationService, 'importStatement' | 'fetchDay' | 'listRuns' | 'getRun' | 'listLines' | 'resolveLine'>;
}

export const adminReconciliationRoutes: FastifyPluginAsyncTypebox<AdminReconciliationRouteOptions> = async (app, { reconciliation }) => {
  app.post(
    '/reconciliation/imports',
    {
      // A day's statement is larger than an ordinary request (the JSON-escaped text of the file).
      bodyLimit: 2 * STATEMENT_MAX_BYTES,
      schema: {
        operationId: 'adminImportStatement',
        tags: ['admin'],
        summary: "Import an upstream's statement of one day and compare it with our records (the same file again answers the earlier run)",
        body: ImportBody,
        response: {
          200: SuccessEnvelope(Type.Object({ run: Run, replayed: Type.Boolean() }), 'The run.'),
          404: errorResponse('NOT_FOUND: the connector offers no statement.'),
        },
      },
    },
    async (request) => ok(await reconciliation.importStatement({ ...request.body, actor: ADMIN_ACTOR })),
  );

  // The same import with the file itself as the body (curl --data-binary @file.csv): a CSV statement
  // needs no JSON escaping. Parsed here only, so the rest of the operator API stays JSON.
  await app.register(async (csv) => {
    csv.addContentTypeParser(CSV_MEDIA_TYPE, { parseAs: 'string', bodyLimit: STATEMENT_MAX_BYTES }, (_request, body, done) => done(null, body));
    csv.withTypeProvider<TypeBoxTypeProvider>().post(
      '/reconciliation/imports/csv',
      {
        schema: {
          operationId: 'adminImportStatementCsv',
          tags: ['admin'],
          summary: 'Import a CSV statement sent as the request body (text/csv), the connector and day in the query',
          consumes: [CSV_MEDIA_TYPE],
          querystring: Type.Object(
            { connector: ImportBody.properties.connector, day: ImportBody.properties.day, fileName: Type.Optional(Text({ minLength: 1, maxLength: 200 })) },
            { additionalProperties: false },
          ),
          body: Text({ multiline: true, minLength: 1, maxLength: STATEMENT_MAX_BYTES, description: "the file's text" }),
          response: {
            200: SuccessEnvelope(Type.Object({ run: Run, replayed: Type.Boolean() }), 'The run.'),
            404: errorResponse('NOT_FOUND: the connector offers no statement.'),
          },
        },
      },
      async (request) => ok(await reconciliation.importStatement({ ...request.query, content: request.body, actor: ADMIN_ACTOR })),
    );
  });

  app.post(
    '/reconciliation/fetches',
    {
      schema: {
        operationId: 'adminFetchStatement',
        tags: ['admin'],
        summary: "Fetch a day's statement from the connector's statement API and compare it (once per connector and day: a second call answers the earlier run)",
        body: FetchBody,
        response: {
          200: SuccessEnvelope(Type.Object({ run: Run, replayed: Type.Boolean() }), 'The run.'),
          404: errorResponse('NOT_FOUND: the connector has no statement API, or its credentials are not set.'),
          503: errorResponse('UNAVAILABLE: the provider did not answer; repeat the call later.'),
        },
      },
    },
    async (request) => {
      const dayStartMs = dayStartOf(request.body.day);
      if (dayStartMs === null) throw new AppError('VALIDATION_FAILED', 'day must be a calendar day, YYYY-MM-DD.', [{ field: 'day', problem: 'is not a calendar day' }]);
      return ok(await reconciliation.fetchDay(request.body.connector, dayStartMs, ADMIN_ACTOR));
    },
  );

  app.get(
    '/reconciliation/runs',
    {
      schema: {
        operationId: 'adminListReconciliationRuns',
        tags: ['admin'],
        summary: 'Reconciliation runs, newest first',
        querystring: Type.Object({ connector: Type.Optional(Id), limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) }, { additionalProperties: false }),
        response: { 200: SuccessEnvelope(Type.Object({ items: Type.Array(Run), nextCursor: Nullable(Type.String()) }), 'One page of runs.') },
      },
    },
    async (request) => {
      const { connector, limit, cursor } = request.query;
      return ok(await reconciliation.listRuns({ connector, cursor, limit: limit === undefined ? undefined : Number(limit) }));
    },
  );

  app.get(
    '/reconciliation/runs/:id',
    {
      schema: {
        operationId: 'adminGetReconciliationRun',
        tags: ['admin'],
        summary: 'One reconciliation run',
        params: Type.Object({ id: Id }),
        response: { 200: SuccessEnvelope(Run, 'The run.'), 404: errorResponse('NOT_FOUND: no such run.') },
      },
    },
    async (request) => ok(await reconciliation.getRun(request.params.id)),
  );

  app.get(
    '/reconciliation/runs/:id/lines',
    {
      schema: {
        operationId: 'adminListReconciliationLines',
        tags: ['admin'],
        summary: "A run's lines in the statement's order; unresolved=true: only those waiting for the operator",
        params: Type.Object({ id: Id }),
        querystring: Type.Object(
          {
            outcome: Type.Optional(Outcome),
            unresolved: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
            limit: Type.Optional(Limit),
            cursor: Type.Optional(Cursor),
          },
          { additionalProperties: false },
        ),
        response: { 200: SuccessEnvelope(Type.Object({ items: Type.Array(Line), nextCursor: Nullable(Type.String()) }), 'One page of lines.'), 404: errorResponse('NOT_FOUND: no such run.') },
      },
    },
    async (request) => {
      const { outcome, unresolved, limit, cursor } = request.query;
      return ok(await reconciliation.listLines(request.params.id, { outcome, unresolved: unresolved === 'true', cursor, limit: limit === undefined ? undefined : Number(limit) }));
    },
  );

  app.post(
    '/reconciliation/lines/:id/resolve',
    {
      schema: {
        operationId: 'adminResolveReconciliationLine',
        tags: ['admin'],
        summary: 'Resolve a line that did not match, with the reason (audited); the same reason again answers it unchanged',
        params: Type.Object({ id: Id }),
        body: ResolveBody,
        response: {
          200: SuccessEnvelope(Type.Object({ line: Line, replayed: Type.Boolean({ description: 'true: already resolved with this reason; nothing changed' }) }), 'The line.'),
          404: errorResponse('NOT_FOUND: no such line.'),
          409: errorResponse('CONFLICT: the line matched (nothing to resolve) or was resolved with another reason.'),
        },
      },
    },
    async (request) => ok(await reconciliation.resolveLine(request.params.id, ADMIN_ACTOR, request.body.reason)),
  );
};
