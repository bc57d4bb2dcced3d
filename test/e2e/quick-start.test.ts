// The README's first command as a merchant meets it: the service compiled by scripts/build.mjs (what
// `npm start` runs), started on a fresh data directory with the embedded default, prints a sandbox
// merchant and a signed curl example; the example, run in a shell, answers the merchant's balance.
// Also checks that the build carried the checkout's and console's assets beside the modules.
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';

const run = promisify(execFile);
const REPO = path.resolve(__dirname, '../..');
/** Inside the repository, so the compiled modules find node_modules as dist/ does. */
const BUILD_DIR = path.join(REPO, 'test-results', `build-${process.pid}-${Date.now()}`);
const BUILD_TIMEOUT_MS = 180_000;

let dataDir: string;
let output = '';
let child: ReturnType<typeof spawn> | null = null;
let port = 0;

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(REPO, 'scripts', 'build.mjs'), BUILD_DIR], { stdio: 'pipe' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-quick-start-'));
  port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  // The embedded default: whatever the test run's store, the quick start is SQLite with no settings.
  for (const name of ['DATABASE_URL', 'DATABASE_SCHEMA', 'ADMIN_TOKEN', 'SECRET_KEY', 'SIMULATOR_URL']) delete env[name];
  const started = spawn(process.execPath, [path.join(BUILD_DIR, 'src', 'main.js')], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child = started;
  await new Promise<void>((resolve, reject) => {
    started.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('--data-binary "$BODY"')) resolve();
    });
    started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.on('exit', (code) => reject(new Error(`the compiled service exited (${code}) before printing its example:\n${output}`)));
  });
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(BUILD_DIR, { recursive: true, force: true });
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the quick start, compiled as npm start runs it', () => {
  it('prints a sandbox merchant and an example that answers its balance when pasted into a shell', async () => {
    expect(output).toMatch(/Sandbox MerchantID: mch_\w+/);
    expect(output).toMatch(/First operator: admin@paygate\.local \/ \S+/);
    const example = output.slice(output.indexOf("BODY='"), output.indexOf('--data-binary "$BODY"') + '--data-binary "$BODY"'.length);
    const { stdout } = await run('bash', ['-c', example], { timeout: 30_000 });
    const answer = JSON.parse(stdout) as { code: string; data: { currency: string; available: number } };
    expect(answer.code).toBe('200');
    expect(answer.data.currency).toBe('INR');
    expect(answer.data.available).toBeGreaterThanOrEqual(0);
  });

  it('serves the checkout and console assets that the build copied beside their modules', async () => {
    const console = await fetch(`http://127.0.0.1:${port}/console/assets/console.css`);
    expect(console.status).toBe(200);
    expect(console.headers.get('content-type')).toContain('text/css');
    expect(await console.text()).toBe(fs.readFileSync(path.join(REPO, 'src', 'console', 'assets', 'console.css'), 'utf8'));
    const checkout = await fetch(`http://127.0.0.1:${port}/checkout/assets/checkout.js`);
    expect(checkout.status).toBe(200);
    expect(await checkout.text()).toBe(fs.readFileSync(path.join(REPO, 'src', 'checkout', 'assets', 'checkout.js'), 'utf8'));
  });
});
