// Runs the bank simulator as its own process, e.g.
//   SIM_KEY=k SIM_CALLBACK_SECRET=s SIM_CALLBACK_URL=http://127.0.0.1:8080/v1/callbacks/simulator \
//   node --import tsx src/simulator/main.ts
import { standaloneConfigFromEnv } from './config.js';
import { startSimulator } from './server.js';

async function main(): Promise<void> {
  const config = standaloneConfigFromEnv(process.env);
  // SIM_LOGGER=false silences the request log (the benchmark's simulator answers thousands a second).
  const simulator = await startSimulator({ ...config, logger: process.env.SIM_LOGGER !== 'false' });
  process.stdout.write(`Bank simulator on ${simulator.url}, callbacks to ${config.callbackUrl}\n`);
  const stop = async (): Promise<void> => {
    await simulator.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`simulator failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
