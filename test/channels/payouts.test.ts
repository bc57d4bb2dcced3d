import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamUnavailableError } from '../../src/connectors/channel.js';
import { SimulatorChannel, SimulatorRejectedError } from '../../src/connectors/simulator/flows.js';
import { CHANNEL_TIMEOUT_MS, eventually, payoutSubmission, startHarness, type Harness } from './harness.js';

describe('payouts at the simulated bank (contract section 11)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ payoutDelayMs: 3_000 });
  });
  afterAll(async () => h.close());
  afterEach(() => h.simulator.resetFaults());

  const parsedCallbacks = (ref: string) => h.receiver.about(ref).map((c) => h.channel.parseCallback(c.headers, c.rawBody));

  it('a payout is PROCESSING, then succeeds with a 12-digit UTR once the delay has passed on the clock', async () => {
    const submission = payoutSubmission('50100012345678');
    expect(await h.channel.submitPayout(submission)).toEqual({ status: 'PROCESSING' });
    h.clock.advance(2_999);
    expect(await h.channel.queryPayout(submission.transactionRef)).toEqual({ status: 'PROCESSING' });
    h.clock.advance(1);
    const done = await h.channel.queryPayout(submission.transactionRef);
    expect(done.status).toBe('SUCCESS');
    expect(done.upstreamRef).toMatch(/^\d{12}$/);
    const [callback] = await eventually(() => parsedCallbacks(submission.transactionRef).length === 1 && parsedCallbacks(submission.transactionRef));
    expect(callback).toEqual({ kind: 'payout', transactionRef: submission.transactionRef, state: done });
  });

  it('the sweeper completes due payouts and calls back without being asked', async () => {
    const submission = payoutSubmission('0123456789', { currency: 'NGN', method: 'BANK', bankCode: '058' });
    await h.channel.submitPayout(submission);
    h.clock.advance(3_000);
    const [callback] = await eventually(() => parsedCallbacks(submission.transactionRef).length === 1 && parsedCallbacks(submission.transactionRef));
    expect(callback).toMatchObject({ kind: 'payout', state: { status: 'SUCCESS' } });
    expect(callback!.kind === 'payout' && callback!.state.upstreamRef).toMatch(/^\d{30}$/);
  });

  it('an account ending 0001 fails at submission with INVALID_ACCOUNT', async () => {
    const submission = payoutSubmission('50100000000001');
    expect(await h.channel.submitPayout(submission)).toEqual({ status: 'FAILED', failureReason: 'INVALID_ACCOUNT' });
    expect(await h.channel.queryPayout(submission.transactionRef)).toEqual({ status: 'FAILED', failureReason: 'INVALID_ACCOUNT' });
    await eventually(() => parsedCallbacks(submission.transactionRef).length === 1);
  });

  it('a UPI VPA whose handle ends 0001 fails the same way', async () => {
    const submission = payoutSubmission('ravi0001@okaxis', { method: 'UPI', bankCode: null });
    expect(await h.channel.submitPayout(submission)).toMatchObject({ status: 'FAILED', failureReason: 'INVALID_ACCOUNT' });
  });

  it('an account ending 0002 stays PROCESSING for 2 minutes of clock, then succeeds', async () => {
    const submission = payoutSubmission('01234560002', { currency: 'EGP', method: 'WALLET', bankCode: null });
    expect(await h.channel.submitPayout(submission)).toEqual({ status: 'PROCESSING' });
    h.clock.advance(119_999);
    expect(await h.channel.queryPayout(submission.transactionRef)).toEqual({ status: 'PROCESSING' });
    h.clock.advance(1);
    expect(await h.channel.queryPayout(submission.transactionRef)).toMatchObject({ status: 'SUCCESS' });
  });

  it('an account ending 0003 times out on the first submission, yet the transfer exists and is paid exactly once', async () => {
    const submission = payoutSubmission('1234567890003', { currency: 'IDR', method: 'TRANSFER', bankCode: '00009' });
    await expect(h.channel.submitPayout(submission)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(await h.channel.queryPayout(submission.transactionRef)).toEqual({ status: 'PROCESSING' });
    expect(await h.channel.submitPayout(submission)).toEqual({ status: 'PROCESSING' });
    h.clock.advance(3_000);
    const done = await h.channel.queryPayout(submission.transactionRef);
    expect(done).toMatchObject({ status: 'SUCCESS' });
    expect(await h.channel.submitPayout(submission)).toEqual(done);
    expect(h.simulator.stats.transfersFor(submission.transactionRef)).toBe(1);
    expect(h.simulator.stats.submissionsFor(submission.transactionRef)).toBe(3);
  });

  it('a repeated submission never creates a second transfer', async () => {
    const submission = payoutSubmission('50100012340000');
    const executedBefore = h.simulator.stats.transfersExecuted;
    const first = await h.channel.submitPayout(submission);
    expect(await h.channel.submitPayout(submission)).toEqual(first);
    expect(h.simulator.stats.transfersFor(submission.transactionRef)).toBe(1);
    expect(h.simulator.stats.submissionsFor(submission.transactionRef)).toBe(2);
    expect(h.simulator.stats.transfersExecuted).toBe(executedBefore + 1);
  });

  it('the same reference with other details is refused, not paid', async () => {
    const submission = payoutSubmission('50100012341111');
    await h.channel.submitPayout(submission);
    const refusal = await h.channel.submitPayout({ ...submission, amountMinor: 60_000n }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SimulatorRejectedError);
    expect(refusal).toMatchObject({ upstreamStatus: 409, upstreamError: 'REFERENCE_REUSED' });
    expect(h.simulator.stats.transfersFor(submission.transactionRef)).toBe(1);
  });

  it('a payout the bank never received is UNKNOWN', async () => {
    expect(await h.channel.queryPayout('0190a0a0-0000-7000-8000-000000000000')).toEqual({ status: 'UNKNOWN' });
  });

  it('a 500 from the bank is UpstreamUnavailableError, and nothing was executed', async () => {
    h.simulator.faults.failNextRequests = 1;
    const submission = payoutSubmission('50100012342222');
    await expect(h.channel.submitPayout(submission)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(h.simulator.stats.submissionsFor(submission.transactionRef)).toBe(0);
    expect(await h.channel.queryPayout(submission.transactionRef)).toEqual({ status: 'UNKNOWN' });
    expect(await h.channel.submitPayout(submission)).toEqual({ status: 'PROCESSING' });
  });

  it('latency beyond the channel timeout is UpstreamUnavailableError, though the bank may still execute it', async () => {
    h.simulator.faults.latencyMs = CHANNEL_TIMEOUT_MS * 3;
    const submission = payoutSubmission('50100012343333');
    await expect(h.channel.submitPayout(submission)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    h.simulator.faults.latencyMs = 0;
    await eventually(() => h.simulator.stats.transfersFor(submission.transactionRef) === 1);
    expect(await h.channel.queryPayout(submission.transactionRef)).toEqual({ status: 'PROCESSING' });
  });

  it('an unreachable bank is UpstreamUnavailableError', async () => {
    const unreachable = new SimulatorChannel({ baseUrl: 'http://127.0.0.1:9', apiKey: h.apiKey, callbackSecret: h.callbackSecret, timeoutMs: 300 });
    try {
      await expect(unreachable.submitPayout(payoutSubmission('50100012344444'))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    } finally {
      await unreachable.close();
    }
  });

  it('a wrong simulator key is refused, never taken for an unknown outcome', async () => {
    const wrongKey = new SimulatorChannel({ baseUrl: h.simulator.url, apiKey: 'wrong', callbackSecret: h.callbackSecret, timeoutMs: 300 });
    try {
      await expect(wrongKey.queryPayout('any')).rejects.toMatchObject({ upstreamStatus: 401 });
    } finally {
      await wrongKey.close();
    }
  });

  it('refuses a payout method the currency does not offer', async () => {
    await expect(h.channel.submitPayout(payoutSubmission('123', { currency: 'IDR', method: 'UPI' }))).rejects.toMatchObject({
      upstreamStatus: 400,
      upstreamError: 'UNSUPPORTED_METHOD',
    });
  });
});
