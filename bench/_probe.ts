import { startNoopServer } from './service.js';
import { runLoad } from './load.js';
const noop = await startNoopServer();
const requests = Array.from({ length: 100 }, () => ({ path: '/noop', body: '{"currency":"IDR"}', headers: { 'Content-Type': 'application/json', MerchantID: 'mch_x', Timestamp: '1700000000', Signature: Buffer.alloc(256, 7).toString('base64') } }));
for (let k = 0; k < 3; k++) {
  const r = await runLoad({ origin: noop.baseUrl, requests, connections: 50, warmupMs: 1000, durationMs: 3000, cycle: true, watch: { noop: noop.pid } });
  console.log(Math.round(r.rps), r.latencyMs.p50, r.latencyMs.p99, JSON.stringify(r.cpu), 'noop us/req', (r.cpu!.processMs.noop! * 1000 / r.requests).toFixed(1), 'client us/req', (r.cpu!.processMs['load generator']! * 1000 / r.requests).toFixed(1));
}
await noop.stop(); await noop.cleanup();
