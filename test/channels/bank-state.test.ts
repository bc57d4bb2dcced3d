// The simulated bank's state file: a bank started again on the same file still knows the
// collections it opened and the transfers it took, settles what was in flight and calls back, and
// never executes a known transfer twice; a line cut short by a crash is passed over, and the file
// is compacted to one line per record at start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { SimulatorChannel } from '../../src/connectors/simulator/flows.js';
import { API_KEY_HEADER } from '../../src/simulator/protocol.js';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/server.js';
import { CallbackReceiver, CHANNEL_TIMEOUT_MS, collectionRequest, eventually, payoutSubmission } from './harness.js';

const API_KEY = 'sim-state-key';
const CALLBACK_SECRET = 'sim-state-callback-secret';

describe('the simulated bank across a restart', () => {
  let dir: string;
  let stateFile: string;
  let clock: ManualClock;
  let receiver: CallbackReceiver;
  const open: { simulator: SimulatorHandle; channel: SimulatorChannel }[] = [];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bank-state-'));
    stateFile = path.join(dir, 'bank', 'simulator-state.jsonl');
    clock = new ManualClock(Date.UTC(2026, 10, 28, 12, 0, 0));
    receiver = new CallbackReceiver();
    await receiver.start();
  });

  afterEach(async () => {
    for (const { simulator, channel } of open.splice(0)) {
      await channel.close();
      await simulator.close();
    }
    await receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function startBank(options: { stateFile?: string } = { stateFile }): Promise<{ simulator: SimulatorHandle; channel: SimulatorChannel }> {
    const simulator = await startSimulator({
      apiKey: API_KEY,
      callbackUrl: receiver.url,
      callbackSecret: CALLBACK_SECRET,
      clock,
      payoutDelayMs: 3_000,
      sweepIntervalMs: 20,
      callbackRetryDelaysMs: [20, 50, 100],
      ...options,
    });
    const channel = new SimulatorChannel({ baseUrl: simulator.url, apiKey: API_KEY, callbackSecret: CALLBACK_SECRET, timeoutMs: CHANNEL_TIMEOUT_MS, clock });
    const bank = { simulator, channel };
    open.push(bank);
    return bank;
  }

  async function stop(bank: { simulator: SimulatorHandle; channel: SimulatorChannel }): Promise<void> {
    open.splice(open.indexOf(bank), 1);
    await bank.channel.close();
    await bank.simulator.close();
  }

  const complete = (bank: { simulator: SimulatorHandle }, transactionRef: string) =>
    fetch(`${bank.simulator.url}/sim/collections/${transactionRef}/complete`, {
      method: 'POST',
      headers: { [API_KEY_HEADER]: API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'Success' }),
    });

  it('knows its pending collection and its transfer in flight after a restart, settles the transfer and calls back', async () => {
    const first = await startBank();
    const request = collectionRequest(clock, 'INR', 'NATIVE', 75_000n);
    const opened = await first.channel.createCollection(request);
    const payout = payoutSubmission('123456789012');
    expect((await first.channel.submitPayout(payout)).status).toBe('PROCESSING');
    await stop(first);

    const second = await startBank();
    // The payer pays after the restart: the bank still has the collection, with the same instructions.
    const paid = await complete(second, request.transactionRef);
    expect(paid.status).toBe(200);
    const body = (await paid.json()) as { status: string; upstreamRef: string; instructions: unknown };
    expect(body).toMatchObject({ status: 'PAID', upstreamRef: opened.upstreamRef });
    expect(body.instructions).toEqual(opened.instructions);
    await eventually(() => receiver.about(request.transactionRef).some((c) => c.rawBody.toString().includes('"PAID"')));

    // The transfer taken before the restart is still in flight, and a repeat executes nothing.
    expect((await second.channel.queryPayout(payout.transactionRef)).status).toBe('PROCESSING');
    expect((await second.channel.submitPayout(payout)).status).toBe('PROCESSING');
    expect(second.simulator.stats.transfersFor(payout.transactionRef)).toBe(0);
    clock.advance(3_000);
    await eventually(() => receiver.about(payout.transactionRef).some((c) => c.rawBody.toString().includes('"SUCCESS"')));
    expect((await second.channel.queryPayout(payout.transactionRef)).status).toBe('SUCCESS');
  });

  it('without a state file, a restarted bank has forgotten everything, as before', async () => {
    const first = await startBank({});
    const payout = payoutSubmission('123456789012');
    await first.channel.submitPayout(payout);
    await stop(first);
    const second = await startBank({});
    expect((await second.channel.queryPayout(payout.transactionRef)).status).toBe('UNKNOWN');
    expect(fs.existsSync(stateFile)).toBe(false);
  });

  it('passes over a line cut short by a crash, keeps each record once, and compacts the file at start', async () => {
    const first = await startBank();
    const refs: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const request = collectionRequest(clock, 'IDR', 'QRIS', 50_000n);
      await first.channel.createCollection(request);
      refs.push(request.transactionRef);
    }
    expect((await complete(first, refs[0]!)).status).toBe(200);
    await stop(first);
    // Four lines (three opened, one paid), then half a line, as a crash mid-write would leave it.
    expect(fs.readFileSync(stateFile, 'utf8').trim().split('\n')).toHaveLength(4);
    fs.appendFileSync(stateFile, '{"book":"collection","record":{"transactionRef":"cut-sh');

    const second = await startBank();
    const lines = fs.readFileSync(stateFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { record: { transactionRef: string; status: string } });
    expect(lines.map((line) => line.record.transactionRef)).toEqual(refs);
    expect(lines.map((line) => line.record.status)).toEqual(['PAID', 'PENDING', 'PENDING']);
    expect((await second.channel.queryCollection(refs[0]!)).status).toBe('PAID');
    expect((await second.channel.queryCollection(refs[2]!)).status).toBe('PENDING');
  });

  it('a second bank on the same file while the first runs keeps its books in memory, and a lock left by a dead process is taken over', async () => {
    const first = await startBank();
    const kept = payoutSubmission('123456789012');
    await first.channel.submitPayout(kept);
    const second = await startBank();
    const strayed = payoutSubmission('123456789013');
    await second.channel.submitPayout(strayed);
    const written = fs.readFileSync(stateFile, 'utf8');
    expect(written).toContain(kept.transactionRef);
    expect(written).not.toContain(strayed.transactionRef);
    await stop(second);
    await stop(first);
    expect(fs.existsSync(`${stateFile}.lock`)).toBe(false);

    // A killed service leaves its lock behind; a process of that pid no longer runs.
    fs.writeFileSync(`${stateFile}.lock`, '2147483646');
    const third = await startBank();
    expect((await third.channel.queryPayout(kept.transactionRef)).status).toBe('PROCESSING');
    expect(fs.readFileSync(`${stateFile}.lock`, 'utf8')).toBe(String(process.pid));
  });
});
