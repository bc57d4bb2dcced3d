// Start-up: read config, open and migrate the store, seed the sandbox on first start, serve the API
// and run the background work (by ROLE); on SIGTERM/SIGINT finish in-flight requests and the jobs
// in progress, then exit.
import { loadConfig } from './config.js';
import { buildRuntime } from './bootstrap.js';
import { buildApp } from './http/app.js';
import { exampleRequest, seedSandbox } from './sandbox-seed.js';
import { Worker } from './worker.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await buildRuntime(config);
  const { services } = runtime;
  const handle = await buildApp(services);
  handle.replay.startPurging();
  await handle.app.listen({ host: config.host, port: config.port });
  const address = handle.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const baseUrl = `http://localhost:${port}`;
  const callbackHost = ['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host;
  services.channels.setServiceBaseUrl(`http://${callbackHost.includes(':') ? `[${callbackHost}]` : callbackHost}:${port}`);

  const worker = new Worker(config.role === 'api' ? [] : runtime.jobs, handle.app.log);
  worker.start();

  if (config.seedSandboxMerchant && !config.databaseUrl) {
    const sandbox = await seedSandbox(services);
    if (sandbox) {
      process.stdout.write(
        [
          '',
          `Paygate is running on ${baseUrl} (store: ${services.store.kind}, data: ${config.dataDir})`,
          `Sandbox MerchantID: ${sandbox.merchantId}`,
          `Sandbox private key: ${sandbox.privateKeyFile}`,
          `Admin token: ${services.adminToken}`,
          `API reference: ${baseUrl}/docs`,
          'Try a signed request (it signs afresh each time; run it as often as you like):',
          '',
          exampleRequest(baseUrl, sandbox),
          '',
        ].join('\n') + '\n',
      );
    }
  }

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    handle.app.log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    const timer = setTimeout(() => process.exit(1), config.shutdownGraceMs);
    timer.unref();
    await handle.close();
    await worker.stop();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`paygate failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
