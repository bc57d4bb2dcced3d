// The README's first command as a merchant meets it: the service compiled by scripts/build.mjs (what
// `npm start` runs), started on a fresh data directory with the embedded default, prints a sandbox
// merchant and a signed curl example; the example, run in a shell, answers the merchant's balance.
// Also checks that the build carried the checkout's and console's assets beside the modules.
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
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

  /** The compiled service on `env`'s port and data directory; answers its exit code and what it printed. */
  async function startExpectingExit(extra: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
    for (const name of ['DATABASE_URL', 'DATABASE_SCHEMA', 'ADMIN_TOKEN', 'SECRET_KEY', 'SIMULATOR_URL']) delete env[name];
    const second = spawn(process.execPath, [path.join(BUILD_DIR, 'src', 'main.js')], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    second.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    second.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    return { code, output: printed };
  }

  it('a second start on the same data directory and port fails and leaves the running service its bank', async () => {
    const published = (): { pid: number; url: string } => JSON.parse(fs.readFileSync(path.join(dataDir, 'simulator.json'), 'utf8'));
    const before = published();
    expect(before.pid).toBe(child!.pid);
    const second = await startExpectingExit({ PORT: String(port), DATA_DIR: dataDir });
    expect(second.code).toBe(1);
    expect(second.output).toContain('EADDRINUSE');
    // The CLI still finds the running service's bank, and the bank still holds the books.
    expect(published()).toEqual(before);
    expect(fs.readFileSync(path.join(dataDir, 'simulator-state.jsonl.lock'), 'utf8').trim()).toBe(String(child!.pid));
    const example = output.slice(output.indexOf("BODY='"), output.indexOf('--data-binary "$BODY"') + '--data-binary "$BODY"'.length);
    expect(JSON.parse((await run('bash', ['-c', example], { timeout: 30_000 })).stdout)).toMatchObject({ code: '200' });
  }, 60_000);

  it('a start whose port is taken gives back the bank it started: no lock and no published bank are left', async () => {
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as net.AddressInfo).port;
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-port-taken-'));
    try {
      const second = await startExpectingExit({ PORT: String(taken), HOST: '127.0.0.1', DATA_DIR: otherDir });
      expect(second.code).toBe(1);
      expect(fs.existsSync(path.join(otherDir, 'simulator.json'))).toBe(false);
      expect(fs.existsSync(path.join(otherDir, 'simulator-state.jsonl.lock'))).toBe(false);
    } finally {
      squatter.close();
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  }, 60_000);

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
