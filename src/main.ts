// Start-up: read config, open and migrate the store, seed the sandbox on first start, serve the API
// and run the background work (by ROLE); on SIGTERM drain (503 to new requests), then finish in-flight
// requests and the jobs in progress, and exit.
import v8 from 'node:v8';
import { loadConfig } from './config.js';
import { buildRuntime } from './bootstrap.js';
import { buildApp } from './server.js';
import { exampleRequest, seedConsoleUsers, seedSandbox } from './sandbox-seed.js';
import { Worker } from './core/worker.js';
import { sleep } from './core/clock.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // The resident set must stay under the 300 MiB budget (contract section 13): under fast allocation V8
  // would let garbage in the old generation reach about four times the live heap before collecting.
  if (config.heapGrowthPercent > 0) v8.setFlagsFromString(`--heap-growing-percent=${config.heapGrowthPercent}`);
  const runtime = await buildRuntime(config);
  const { services } = runtime;
  const handle = await buildApp(services);
  handle.replay.startPurging();
  try {
    await handle.app.listen({ host: config.host, port: config.port });
  } catch (error) {
    // The port is taken (often: the service already runs on this data directory). Give back what
    // start-up took, the in-process bank's lock and its published record among them, before exiting.
    await runtime.close().catch(() => undefined);
    throw error;
  }
  const address = handle.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const baseUrl = `http://localhost:${port}`;
  const callbackHost = ['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host;
  services.channels.setServiceBaseUrl(`http://${callbackHost.includes(':') ? `[${callbackHost}]` : callbackHost}:${port}`);

  const worker = new Worker(config.role === 'api' ? [] : runtime.jobs, handle.app.log, runtime.workerOptions);
  worker.start();

  if (config.seedSandboxMerchant && !config.databaseUrl) {
    const sandbox = await seedSandbox(services);
    if (sandbox) {
      const people = await seedConsoleUsers(services, sandbox.merchantId);
      const consoleUrl = `http://127.0.0.1:${port}/console`;
      process.stdout.write(
        [
          '',
          `Paygate is running on ${baseUrl} (store: ${services.store.kind}, data: ${config.dataDir})`,
          `Sandbox MerchantID: ${sandbox.merchantId}`,
          `Sandbox private key: ${sandbox.privateKeyFile}`,
          `Admin token: ${services.adminToken}`,
          `API reference: ${baseUrl}/docs`,
          `Console: ${consoleUrl}`,
          ...(people.operator
            ? [`  First operator: ${people.operator.email} / ${people.operator.password} (set up an authenticator app at first sign-in)`]
            : ['  Operators: as created before (passwords are shown only when created)']),
          ...(people.owner ? [`  Sandbox merchant owner: ${people.owner.email} / ${people.owner.password}`] : []),
          'Try a signed request (it signs afresh each time; run it as often as you like):',
          '',
          exampleRequest(baseUrl, sandbox),
          '',
        ].join('\n') + '\n',
      );
    }
  }

  let stopping = false;
  // SIGTERM comes from an orchestrator whose load balancer needs the drain to notice /readyz failing;
  // SIGINT is someone at a terminal, who has no load balancer to wait for.
  const stop = async (signal: string, drainMs: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    handle.app.log.info({ signal, drainMs }, 'shutting down: draining, then finishing in-flight requests and jobs');
    const timer = setTimeout(() => process.exit(1), drainMs + config.shutdownGraceMs);
    timer.unref();
    handle.drain();
    const workerStopped = worker.stop();
    await sleep(drainMs);
    await handle.close();
    await workerStopped;
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM', config.shutdownDrainMs));
  process.on('SIGINT', () => void stop('SIGINT', 0));
}

main().catch((error: unknown) => {
  process.stderr.write(`paygate failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
