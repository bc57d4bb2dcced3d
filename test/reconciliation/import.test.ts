// Reconciliation through the operator API: real sandbox payments and payouts, the simulated bank's
// statement of the day edited into every kind of difference, imported, listed and resolved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../helpers/server.js';
import { collectionReady, initiateBody, paidPayment } from '../payments/api-helpers.js';
import { fund, payoutBody, until } from '../payouts/helpers.js';
import { addLine, allLines, editLine, importStatement, lineOf, simulatorStatement, today } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RECONCILIATION_DAILY: 'false' });
});
afterAll(async () => server?.close());

const runCount = async (): Promise<number> => (await server.admin('GET', '/reconciliation/runs?connector=simulator&limit=200')).body.data.items.length;

describe('reconciliation: importing a statement', () => {
  it('matches, and reports each kind of difference, for payments, payouts and an unknown line', async () => {
    const shop = await server.createMerchant();
    const matched = await paidPayment(shop, 'NGN', 'TRANSFER');
    const wrongAmount = await paidPayment(shop, 'NGN', 'TRANSFER');
    const wrongStatus = (await shop.client.paymentInitiate(initiateBody('NGN', 'TRANSFER'))).data.transactionRef;
    await collectionReady(server, wrongStatus);
    const dropped = await paidPayment(shop, 'NGN', 'TRANSFER');
    await fund(server, shop.id, 'NGN', 1_000_000_00n);
    const payout = (await shop.client.payoutInitiate(payoutBody('NGN', 'BANK'))).data.transactionRef;
    await until(shop, payout, ['Success']);
    const refunded = await paidPayment(shop, 'INR', 'NATIVE', { amount: 1000 });
    await fund(server, shop.id, 'INR', 1_000_00n);
    expect((await shop.client.paymentRefund({ transactionRef: refunded })).data.status).toBe('Refund');

    let csv = await simulatorStatement(server);
    csv = editLine(csv, wrongAmount, 'collection', (f) => [...f.slice(0, 4), String(BigInt(f[4]!) + 100n), ...f.slice(5)]);
    csv = editLine(csv, wrongStatus, 'collection', (f) => [...f.slice(0, 5), 'PAID', f[6]!]);
    csv = editLine(csv, dropped, 'collection', () => null);
    csv = addLine(csv, `SIMX-UNKNOWN-1,,collection,NGN,5000,PAID,${new Date(server.clock.nowMs()).toISOString()}`);

    const answer = await importStatement(server, csv);
    expect(answer.status).toBe(200);
    expect(answer.body.data.replayed).toBe(false);
    const run = answer.body.data.run;
    expect(run).toMatchObject({ connector: 'simulator', source: 'import', actor: 'admin', expects: ['payment', 'payout', 'refund'] });
    expect(run.counts.amount_mismatch).toBeGreaterThanOrEqual(1);
    expect(run.counts.status_mismatch).toBeGreaterThanOrEqual(1);
    expect(run.counts.missing_ours).toBe(1);
    expect(run.counts.missing_theirs).toBeGreaterThanOrEqual(1);

    const lines = await allLines(server, run.id);
    expect(lineOf(lines, matched)).toMatchObject({ outcome: 'matched', merchantId: shop.id, theirs: { mappedStatus: 'SUCCESS' }, ours: { status: 'Success', mappedStatus: 'SUCCESS' } });
    const amount = lineOf(lines, wrongAmount);
    expect(amount.outcome).toBe('amount_mismatch');
    expect(BigInt(amount.theirs.amountMinor) - BigInt(amount.ours.amountMinor)).toBe(100n);
    expect(lineOf(lines, wrongStatus)).toMatchObject({ outcome: 'status_mismatch', theirs: { status: 'PAID', mappedStatus: 'SUCCESS' }, ours: { status: 'Pending', mappedStatus: 'PENDING' } });
    expect(lineOf(lines, dropped)).toMatchObject({ outcome: 'missing_theirs', lineNumber: null, theirs: null, ours: { status: 'Success' } });
    expect(lineOf(lines, payout, 'payout')).toMatchObject({ outcome: 'matched', ours: { status: 'Success' }, theirs: { status: 'SUCCESS' } });
    expect(lineOf(lines, refunded)).toMatchObject({ outcome: 'matched', theirs: { status: 'PAID' }, ours: { status: 'Refund', mappedStatus: 'SUCCESS' } });
    expect(lineOf(lines, refunded, 'refund')).toMatchObject({ outcome: 'matched', theirs: { status: 'SUCCESS', amountMinor: '100000' }, ours: { status: 'done' } });
    expect(lines.find((l) => l.upstreamRef === 'SIMX-UNKNOWN-1')).toMatchObject({ outcome: 'missing_ours', transactionRef: null, ours: null, theirs: { amountMinor: '5000' } });

    // The worklist: only lines that did not match, filterable by outcome.
    const unresolved = await allLines(server, run.id, '&unresolved=true');
    expect(unresolved.every((l) => l.outcome !== 'matched')).toBe(true);
    expect(unresolved.length).toBe(run.unresolved);
    const onlyMissing = await allLines(server, run.id, '&outcome=missing_ours');
    expect(onlyMissing.map((l) => l.upstreamRef)).toEqual(['SIMX-UNKNOWN-1']);

    // The same file again: the earlier run, nothing stored twice.
    const before = await runCount();
    const again = await importStatement(server, csv);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ replayed: true, run: { id: run.id } });
    expect(await runCount()).toBe(before);
    expect((await allLines(server, run.id)).length).toBe(lines.length);
  });

  it('resolves a line with a reason (audited); the worklist shrinks; a second resolution is answered or refused', async () => {
    const shop = await server.createMerchant();
    const ref = await paidPayment(shop, 'NGN', 'TRANSFER');
    const csv = editLine(await simulatorStatement(server), ref, 'collection', (f) => [...f.slice(0, 4), '1', ...f.slice(5)]);
    const run = (await importStatement(server, csv)).body.data.run;
    const line = lineOf(await allLines(server, run.id), ref);
    expect(line.outcome).toBe('amount_mismatch');
    const waiting = (await allLines(server, run.id, '&unresolved=true')).length;

    const resolved = await server.admin('POST', `/reconciliation/lines/${line.id}/resolve`, { reason: 'bank fee taken at source, confirmed by phone' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ replayed: false, line: { id: line.id, resolvedBy: 'admin', reason: 'bank fee taken at source, confirmed by phone' } });
    expect((await allLines(server, run.id, '&unresolved=true')).length).toBe(waiting - 1);
    expect((await server.admin('GET', `/reconciliation/runs/${run.id}`)).body.data.unresolved).toBe(waiting - 1);

    const audit = (await server.admin('GET', '/audit?action=reconciliation.resolve&limit=200')).body.data.items.find((e: any) => e.target === line.id);
    expect(audit).toMatchObject({ actor: 'admin', merchantId: shop.id, details: { reason: 'bank fee taken at source, confirmed by phone', outcome: 'amount_mismatch', transactionRef: ref } });

    const same = await server.admin('POST', `/reconciliation/lines/${line.id}/resolve`, { reason: 'bank fee taken at source, confirmed by phone' });
    expect(same.body.data.replayed).toBe(true);
    const other = await server.admin('POST', `/reconciliation/lines/${line.id}/resolve`, { reason: 'something else' });
    expect({ status: other.status, message: other.body.message }).toEqual({ status: 409, message: 'CONFLICT' });
    const matchedLine = (await allLines(server, run.id, '&outcome=matched'))[0];
    const onMatched = await server.admin('POST', `/reconciliation/lines/${matchedLine.id}/resolve`, { reason: 'x' });
    expect(onMatched.status).toBe(409);
    expect((await server.admin('POST', '/reconciliation/lines/nope/resolve', { reason: 'x' })).status).toBe(404);
  });

  it('takes the CSV file itself as the body (text/csv), with the bearer token', async () => {
    const shop = await server.createMerchant();
    const ref = await paidPayment(shop, 'NGN', 'TRANSFER');
    const csv = editLine(await simulatorStatement(server), ref, 'collection', (f) => [...f.slice(0, 4), '7', ...f.slice(5)]);
    const post = (token: string, body: string) =>
      fetch(`${server.baseUrl}/admin/reconciliation/imports/csv?connector=simulator&day=${today(server)}&fileName=bank.csv`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
        body,
      });
    expect((await post('wrong', csv)).status).toBe(401);
    const answer = await post(TEST_ADMIN_TOKEN, csv);
    expect(answer.status).toBe(200);
    const { run } = ((await answer.json()) as any).data;
    expect(run).toMatchObject({ fileName: 'bank.csv', source: 'import' });
    expect(lineOf(await allLines(server, run.id), ref)).toMatchObject({ outcome: 'amount_mismatch', theirs: { amountMinor: '7' } });
    const malformed = await post(TEST_ADMIN_TOKEN, 'nonsense\n');
    expect({ status: malformed.status, field: ((await malformed.json()) as any).data.errors[0].field }).toEqual({ status: 400, field: 'line 1' });
  });

  it('refuses a malformed file with the line number and reason, storing nothing', async () => {
    const shop = await server.createMerchant();
    await paidPayment(shop, 'NGN', 'TRANSFER');
    const good = await simulatorStatement(server);
    const [header, first] = good.split('\n') as [string, string];
    const fields = first.split(',');
    const cases: [string, string, string][] = [
      ['bad header', good.replace(header, 'ref,ours,type,currency,amount,status,time'), 'line 1'],
      ['bad amount', `${header}\n${[...fields.slice(0, 4), '12.50', ...fields.slice(5)].join(',')}\n`, 'line 2'],
      ['bad date', `${header}\n${first}\n${[...fields.slice(0, 6), 'yesterday'].join(',')}\n`, 'line 3'],
      ['wrong column count', `${header}\n${first}\n${fields.slice(0, 5).join(',')}\n`, 'line 3'],
      ['the same line twice', `${header}\n${first}\n${first}\n`, 'line 3'],
      ['another day', `${header}\n${[...fields.slice(0, 6), '2001-01-01T00:00:00.000Z'].join(',')}\n`, 'line 2'],
      ['unknown status', `${header}\n${[...fields.slice(0, 5), 'MAYBE', fields[6]].join(',')}\n`, 'line 2'],
    ];
    const before = await runCount();
    for (const [what, content, field] of cases) {
      const answer = await importStatement(server, content);
      expect({ what, status: answer.status, message: answer.body.message, field: answer.body.data.errors?.[0]?.field }).toEqual({ what, status: 400, message: 'VALIDATION_FAILED', field });
      expect(answer.body.data.detail).toContain('Nothing was imported');
    }
    expect(await runCount()).toBe(before);
    const audits = (await server.admin('GET', '/audit?action=reconciliation.import&limit=200')).body.data.items.length;
    expect(audits).toBe(before);

    expect((await importStatement(server, good, 'not-a-day')).status).toBe(400);
    expect((await importStatement(server, good, undefined, 'nobody')).status).toBe(404);
    expect((await server.admin('GET', '/reconciliation/runs/none/lines')).status).toBe(404);
  });
});
