// The operator's two doors to the ledger: the CLI commands and the /admin HTTP routes.
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerSharedSchemas } from '../../src/api/schemas/index.js';
import { adminLedgerRoutes } from '../../src/api/admin/ledger.js';
import { ledgerCommands } from '../../src/cli/ledger-commands.js';
import type { ParsedArgs } from '../../src/cli/args.js';
import type { CliOutput } from '../../src/cli/command.js';
import { FeeService } from '../../src/domain/fees.js';
import { MerchantService } from '../../src/merchants/merchant-service.js';
import { SecretBox } from '../../src/core/secrets.js';
import { errorBody } from '../../src/http/envelope.js';
import { toAppError } from '../../src/http/errors.js';
import type { Services } from '../../src/services.js';
import { openLedger, type LedgerFixture } from './helpers.js';

const M = 'mch_ops';
let f: LedgerFixture;
let services: Services;

beforeEach(async () => {
  f = await openLedger([M], { settlementDelayMs: { INR: 0 } });
  const box = new SecretBox(Buffer.alloc(32, 1).toString('base64'));
  services = {
    store: f.store,
    clock: f.clock,
    ledger: f.ledger,
    fees: new FeeService(f.db, f.clock),
    merchants: new MerchantService(f.db, box, f.clock, { rateLimitPerSecond: 50, credentialCacheMs: 0 }),
  } as unknown as Services;
});
afterEach(async () => f.close());

describe('ledger CLI', () => {
  async function cli(words: string, flags: Record<string, string | boolean>) {
    const command = ledgerCommands.find((c) => c.name === words);
    if (!command) throw new Error(`no command ${words}`);
    const out: string[] = [];
    const err: string[] = [];
    const io: CliOutput = { out: (l) => out.push(l), err: (l) => err.push(l) };
    const args: ParsedArgs = { positional: words.split(' '), flags };
    const code = await command.run(args, services, io);
    return { code, out, err };
  }
  const money = { merchant: M, currency: 'INR' };

  it('grants credit, moves security, adjusts, and shows balances and the journal', async () => {
    expect((await cli('ledger adjust', { ...money, account: 'available', amount: '250.00', reason: 'opening balance' })).code).toBe(0);
    expect((await cli('credit grant', { ...money, amount: '1000', reason: 'approved by risk' })).code).toBe(0);
    expect((await cli('credit lower', { ...money, amount: '400', reason: 'reduced' })).code).toBe(0);
    expect((await cli('security deposit', { ...money, amount: '50.5', reason: 'deposit' })).code).toBe(0);
    expect((await cli('security release', { ...money, amount: '0.5', reason: 'partial' })).code).toBe(0);
    const balance = await cli('ledger balance', { ...money, json: true });
    expect(JSON.parse(balance.out[0]!)).toEqual({ merchantId: M, currency: 'INR', available: 200, pending: 0, held: 0, credit: 600, security: 50 });
    const journal = await cli('ledger journal', { merchant: M, limit: '2', json: true });
    expect(JSON.parse(journal.out[0]!).map((e: { kind: string }) => e.kind)).toEqual(['security_release', 'security_deposit']);
    const text = await cli('ledger journal', { merchant: M });
    expect(text.out.join('\n')).toContain('reason="approved by risk"');
  });

  it('insists on a reason and on well-formed amounts', async () => {
    await expect(cli('ledger adjust', { ...money, account: 'available', amount: '-1.00' })).rejects.toThrow('--reason is required');
    await expect(cli('credit grant', { ...money, amount: '1.005', reason: 'x' })).rejects.toThrow('at most 2 decimals');
    await expect(cli('credit grant', { ...money, amount: '-5', reason: 'x' })).rejects.toThrow('must be positive');
  });

  it('sets fees and limits, settles, and verifies with exit code 0 when the books balance', async () => {
    expect((await cli('fee set', { ...money, method: 'native', direction: 'payin', bps: '120', fixed: '1.00' })).code).toBe(0);
    expect(await services.fees.feeFor(M, 'INR', 'NATIVE', 'payin', 100_00n)).toBe(2_20n);
    expect((await cli('limit set', { ...money, method: 'BANK', direction: 'payout', min: '500', max: '1000' })).code).toBe(0);
    await f.db.transaction().execute((trx) => f.ledger.creditPayment(trx, { merchantId: M, currency: 'INR', paidMinor: 100_00n, feeMinor: 0n, channel: 'sim', ref: 'p1' }));
    const settled = await cli('ledger settle', {});
    expect(settled.out.at(-1)).toBe('1 merchant balances settled');
    const verify = await cli('ledger verify', {});
    expect(verify).toEqual({ code: 0, out: ['ledger OK'], err: [] });
  });

  it('verify exits 1 and prints each violation when the books do not balance', async () => {
    await cli('ledger adjust', { ...money, account: 'available', amount: '10', reason: 'x' });
    await f.db.updateTable('ledger_accounts').set({ balance_minor: 999n }).where('id', '=', `m:${M}:INR:available`).execute();
    const verify = await cli('ledger verify', {});
    expect(verify.code).toBe(1);
    expect(verify.err.join('\n')).toContain(`BALANCE_MISMATCH  m:${M}:INR:available  cached 999, postings sum to 1000`);
  });
});

describe('admin ledger API', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    const fastify = Fastify({ ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true } } }).withTypeProvider<TypeBoxTypeProvider>();
    fastify.setErrorHandler((error, _request, reply) => {
      const appError = toAppError(error);
      void reply.code(appError.status).send(errorBody(appError));
    });
    registerSharedSchemas(fastify);
    await fastify.register(adminLedgerRoutes, { prefix: '/admin', ledger: services.ledger, fees: services.fees, merchants: services.merchants });
    app = fastify as unknown as FastifyInstance;
  });
  afterEach(async () => app.close());

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await app.inject({ method, url, payload });
    return { status: response.statusCode, body: response.json() };
  };

  it('moves money with reasons and answers with the balances after', async () => {
    await call('POST', `/admin/merchants/${M}/adjustments`, { currency: 'INR', account: 'available', amount: 100.1, reason: 'top-up' });
    const credit = await call('POST', `/admin/merchants/${M}/credit`, { currency: 'INR', amount: 500, reason: 'line', action: 'grant', idempotencyKey: 'k1' });
    expect(credit.status).toBe(200);
    expect(credit.body.data.balances).toEqual({ currency: 'INR', available: 100.1, pending: 0, held: 0, credit: 500, security: 0 });
    const again = await call('POST', `/admin/merchants/${M}/credit`, { currency: 'INR', amount: 500, reason: 'line', action: 'grant', idempotencyKey: 'k1' });
    expect(again.body.data).toMatchObject({ replayed: true, balances: { credit: 500 } });
    const security = await call('POST', `/admin/merchants/${M}/security`, { currency: 'INR', amount: 0.1, reason: 'deposit', action: 'deposit' });
    expect(security.body.data.balances).toMatchObject({ available: 100, security: 0.1 });
    const down = await call('POST', `/admin/merchants/${M}/adjustments`, { currency: 'INR', account: 'available', amount: -0.3, reason: 'fix' });
    expect(down.body.data.balances.available).toBe(99.7);
    const balances = await call('GET', `/admin/merchants/${M}/balances?currency=INR`);
    expect(balances.body).toEqual({ code: '200', message: 'SUCCESS', data: { currency: 'INR', available: 99.7, pending: 0, held: 0, credit: 500, security: 0.1 } });
  });

  it('refuses what the ledger refuses, in the envelope', async () => {
    const short = await call('POST', `/admin/merchants/${M}/security`, { currency: 'INR', amount: 1, reason: 'x', action: 'deposit' });
    expect(short).toMatchObject({ status: 422, body: { code: '422', message: 'INSUFFICIENT_BALANCE' } });
    const noReason = await call('POST', `/admin/merchants/${M}/adjustments`, { currency: 'INR', account: 'available', amount: 1 });
    expect(noReason).toMatchObject({ status: 400, body: { message: 'VALIDATION_FAILED' } });
    const decimals = await call('POST', `/admin/merchants/${M}/credit`, { currency: 'INR', amount: 1.001, reason: 'x', action: 'grant' });
    expect(decimals).toMatchObject({ status: 400, body: { message: 'VALIDATION_FAILED' } });
    const unknown = await call('GET', `/admin/merchants/mch_nobody/balances?currency=INR`);
    expect(unknown.status).toBe(404);
    const currency = await call('GET', `/admin/merchants/${M}/balances?currency=USD`);
    expect(currency.body.message).toBe('UNSUPPORTED_CURRENCY');
    const method = await call('PUT', `/admin/merchants/${M}/fees`, { currency: 'NGN', method: 'QRIS', direction: 'payin', bps: 100, fixed: 0 });
    expect(method.body.message).toBe('UNSUPPORTED_METHOD');
  });

  it('pages the journal, sets fees and limits, settles and verifies', async () => {
    for (const amount of [1, 2, 3]) await call('POST', `/admin/merchants/${M}/adjustments`, { currency: 'INR', account: 'pending', amount, reason: `r${amount}` });
    const page = await call('GET', `/admin/merchants/${M}/journal?limit=2`);
    expect(page.body.data.entries.map((e: { reason: string }) => e.reason)).toEqual(['r3', 'r2']);
    expect(page.body.data.entries[0].postings).toContainEqual({ account: `m:${M}:INR:pending`, kind: 'pending', channel: null, merchantId: M, amount: 3 });
    const next = await call('GET', `/admin/merchants/${M}/journal?limit=2&before=${page.body.data.nextBefore}`);
    expect(next.body.data).toMatchObject({ entries: [{ reason: 'r1' }], nextBefore: null });
    const fee = await call('PUT', `/admin/merchants/${M}/fees`, { currency: 'IDR', method: 'QRIS', direction: 'payin', bps: 70, fixed: 0.5 });
    expect(fee.body.data).toEqual({ currency: 'IDR', method: 'QRIS', direction: 'payin', bps: 70, fixed: 0.5 });
    const limits = await call('PUT', `/admin/merchants/${M}/limits`, { currency: 'IDR', method: 'TRANSFER', direction: 'payout', min: 20000, max: 50000000 });
    expect(limits.body.data).toEqual({ currency: 'IDR', method: 'TRANSFER', direction: 'payout', min: 20000, max: 50000000 });
    const settled = await call('POST', '/admin/ledger/settle');
    expect(settled.body.data).toEqual({ settled: [{ merchantId: M, currency: 'INR', amount: 6, repaidCredit: 0 }], more: false });
    const verify = await call('GET', '/admin/ledger/verify');
    expect(verify.body.data).toEqual({ ok: true, violations: [] });
  });
});
