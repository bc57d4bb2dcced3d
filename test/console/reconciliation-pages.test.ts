// The operator's reconciliation pages over HTTP: a statement pasted into the import form becomes a run
// listed with its counts, its lines filter by outcome and worklist, an admin resolves a line with a
// reason (audited, as the admin API does), support sees no button and is refused, a malformed file
// shows the line the service names and stores nothing, and a day is fetched from the simulated bank.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { paidPayment } from '../payments/api-helpers.js';
import { addLine, simulatorStatement, today } from '../reconciliation/helpers.js';
import { ConsoleClient, createAndEnrol, csrfOf } from './console-client.js';

describe('operator reconciliation pages', () => {
  let server: TestServer;
  let admin: ConsoleClient;
  let support: ConsoleClient;
  let paidRef: string;

  const runCount = async () => Number((await server.services.store.db.selectFrom('reconciliation_runs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const lineCount = async () => Number((await server.services.store.db.selectFrom('reconciliation_lines').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    server = await startTestServer({ RECONCILIATION_DAILY: 'false' }, { worker: false });
    const shop = await server.createMerchant();
    paidRef = await paidPayment(shop, 'NGN', 'TRANSFER');
    admin = new ConsoleClient(server);
    await createAndEnrol(server, admin, { email: 'admin@ops.example', kind: 'operator', role: 'admin' });
    support = new ConsoleClient(server);
    await createAndEnrol(server, support, { email: 'support@ops.example', kind: 'operator', role: 'support' });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('shows the line and reason of a malformed file and stores nothing', async () => {
    const before = { runs: await runCount(), lines: await lineCount() };
    const csv = addLine(await simulatorStatement(server), 'SIMX-BAD-1,,collection,NGN,12.50,PAID,2020-01-01T00:00:00Z');
    const expectedLine = csv.trimEnd().split('\n').length;
    const answer = await admin.submit('/console/reconciliation/import', '/console/reconciliation/import', { connector: 'simulator', day: today(server), content: csv });
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(new RegExp(`id="f-content-error">line ${expectedLine}: [^<]+\\. Nothing was imported\\.`));
    // The pasted content stays in the form to be corrected.
    expect(answer.text).toContain('SIMX-BAD-1');
    // A field the API's schema refuses is named under its field.
    const noDay = await admin.submit('/console/reconciliation/import', '/console/reconciliation/import', { connector: 'simulator', day: 'yesterday', content: csv });
    expect(noDay.status).toBe(400);
    expect(noDay.text).toMatch(/id="f-day-error"/);
    expect({ runs: await runCount(), lines: await lineCount() }).toEqual(before);
  });

  it('imports a pasted statement, lists the run with its counts, filters its lines and resolves one with an audited reason', async () => {
    const csv = addLine(await simulatorStatement(server), `SIMX-UNKNOWN-7,,collection,NGN,5000,PAID,${new Date(server.clock.nowMs()).toISOString()}`);
    const imported = await admin.submit('/console/reconciliation/import', '/console/reconciliation/import', { connector: 'simulator', day: today(server), fileName: 'pasted.csv', content: csv });
    expect(imported.status, imported.text).toBe(303);
    const runPath = imported.location!;
    expect(runPath).toMatch(/^\/console\/reconciliation\/runs\//);
    const runId = decodeURIComponent(runPath.split('/').pop()!);
    const run = (await server.admin('GET', `/reconciliation/runs/${runId}`)).body.data;
    expect(run).toMatchObject({ source: 'import', actor: 'console:admin@ops.example', fileName: 'pasted.csv' });
    expect(run.counts.missing_ours).toBe(1);
    expect(run.counts.matched).toBeGreaterThanOrEqual(1);

    const list = await support.get('/console/reconciliation');
    expect(list.status).toBe(200);
    expect(list.text).toContain(`simulator ${today(server)}`);
    expect(list.text).toMatch(new RegExp(`data-label="Unresolved"[^>]*><span class="badge badge-warn">${run.unresolved}<`));
    expect(list.text).toMatch(/data-label="Outcomes"[^>]*>.*1 missing on ours<.*<\/td>/);
    // Support may look but not import.
    expect(list.text).not.toContain('/console/reconciliation/import');
    expect((await support.get('/console/reconciliation/import')).status).toBe(403);
    const byConnector = await support.get('/console/reconciliation?connector=paystack');
    expect(byConnector.text).toContain('No runs of paystack.');

    const all = await admin.get(runPath);
    expect(all.status).toBe(200);
    expect(all.text).toContain(paidRef);
    expect(all.text).toContain('SIMX-UNKNOWN-7');
    const worklist = await admin.get(`${runPath}?unresolved=true`);
    expect(worklist.text).toContain('SIMX-UNKNOWN-7');
    expect(worklist.text).not.toContain(paidRef);
    const onlyMatched = await admin.get(`${runPath}?outcome=matched`);
    expect(onlyMatched.text).toContain(paidRef);
    expect(onlyMatched.text).not.toContain('SIMX-UNKNOWN-7');

    const lines = (await server.admin('GET', `/reconciliation/runs/${runId}/lines?outcome=missing_ours`)).body.data.items;
    const line = lines[0];
    const linePath = `/console/reconciliation/lines/${encodeURIComponent(line.id)}`;
    const resolvePath = `${linePath}/resolve`;

    // Support: the line without a form, and a forged POST (with a valid token of its own) is 403.
    const seen = await support.get(linePath);
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain(resolvePath);
    const refused = await support.request('POST', resolvePath, { _csrf: csrfOf(seen.text), reason: 'support tries' });
    expect(refused.status).toBe(403);
    expect((await server.admin('GET', `/reconciliation/runs/${runId}`)).body.data.unresolved).toBe(run.unresolved);
    // Without the CSRF token an admin is refused too.
    expect((await admin.request('POST', resolvePath, { reason: 'no token' })).status).toBe(403);

    // An empty reason is refused by the API's schema, on the form.
    const empty = await admin.submit(linePath, resolvePath, { reason: '' });
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/id="f-reason-error"/);

    const resolved = await admin.submit(linePath, resolvePath, { reason: 'a test deposit the bank booked by hand' });
    expect(resolved.status).toBe(303);
    expect(resolved.location).toBe(`${runPath}?unresolved=true`);
    const after = (await server.admin('GET', `/reconciliation/runs/${runId}/lines?outcome=missing_ours`)).body.data.items[0];
    expect(after).toMatchObject({ resolvedBy: 'console:admin@ops.example', reason: 'a test deposit the bank booked by hand' });
    const audit = await server.services.store.db.selectFrom('audit_log').selectAll().where('action', '=', 'reconciliation.resolve').where('target', '=', line.id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'console:admin@ops.example' });
    expect(audit[0]!.address).toMatch(/127\.0\.0\.1/);
    const shown = await admin.get(linePath);
    expect(shown.text).toContain('a test deposit the bank booked by hand');
    expect(shown.text).not.toContain(resolvePath);

    // Resolving again with another reason: the service's 409 comes back on the form; nothing changes.
    const again = await admin.request('POST', resolvePath, { _csrf: csrfOf(shown.text), reason: 'another reason' });
    expect(again.status).toBe(400);
    expect(again.text).toMatch(/already resolved/);
    expect(await server.services.store.db.selectFrom('audit_log').selectAll().where('action', '=', 'reconciliation.resolve').where('target', '=', line.id).execute()).toHaveLength(1);

    // The same file again answers the earlier run.
    const replay = await admin.submit('/console/reconciliation/import', '/console/reconciliation/import', { connector: 'simulator', day: today(server), content: csv });
    expect(replay.location).toBe(runPath);
  });

  it('pages the runs on the server, newest first, and keeps the connector filter across pages', async () => {
    const header = (await simulatorStatement(server)).split('\n')[0]!;
    const at = new Date(server.clock.nowMs()).toISOString();
    for (let i = 0; i < 26; i += 1) {
      const content = `${header}\nSIMX-PAGE-${i},,collection,NGN,${100 + i},PAID,${at}\n`;
      await server.services.reconciliation.importStatement({ connector: 'simulator', day: today(server), fileName: `page-${i}.csv`, content, actor: 'test' });
    }
    const first = await support.get('/console/reconciliation?connector=simulator');
    const next = /<a class="button secondary small" href="([^"]+)" rel="next">/.exec(first.text);
    expect(next).not.toBeNull();
    const second = await support.get(next![1]!.replace(/&amp;/g, '&').replace(/&#61;/g, '='));
    expect(second.status).toBe(200);
    expect(second.text).toContain('First page');
    const ids = (text: string) => [...text.matchAll(/href="\/console\/reconciliation\/runs\/([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));
    const firstIds = ids(first.text);
    const secondIds = ids(second.text);
    expect(firstIds).toHaveLength(25);
    expect(secondIds.length).toBeGreaterThan(0);
    expect(secondIds.some((id) => firstIds.includes(id))).toBe(false);
    // Newest first across the pages, as the admin API lists them.
    const api = (await server.admin('GET', '/reconciliation/runs?connector=simulator&limit=200')).body.data.items.map((r: any) => r.id);
    expect([...firstIds, ...secondIds]).toEqual(api.slice(0, firstIds.length + secondIds.length));
  });

  it('fetches a day from a connector with a statement API (once per day)', async () => {
    const page = await admin.get('/console/reconciliation/import');
    expect(page.text).toMatch(/<option value="simulator"/);
    const fetched = await admin.submit('/console/reconciliation/import', '/console/reconciliation/fetch', { connector: 'simulator', day: today(server) });
    expect(fetched.status, fetched.text).toBe(303);
    const runId = decodeURIComponent(fetched.location!.split('/').pop()!);
    expect((await server.admin('GET', `/reconciliation/runs/${runId}`)).body.data).toMatchObject({ source: 'fetch', actor: 'console:admin@ops.example' });
    const again = await admin.submit('/console/reconciliation/import', '/console/reconciliation/fetch', { connector: 'simulator', day: today(server) });
    expect(again.location).toBe(fetched.location);
    const unknown = await admin.submit('/console/reconciliation/import', '/console/reconciliation/fetch', { connector: 'fawry', day: today(server) });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toMatch(/no statement API/);
    expect((await support.request('POST', '/console/reconciliation/fetch', { _csrf: csrfOf((await support.get('/console/reconciliation')).text), connector: 'simulator', day: today(server) })).status).toBe(403);
  });
});
