// The README's first command as a merchant meets it: `npm start` itself (the build by scripts/build.mjs,
// then the compiled service), on a fresh data directory with the embedded default, prints a sandbox
// merchant and a signed curl example; the example, run in a shell, answers the merchant's balance.
// Also checks that the build carried the checkout's and console's assets beside the modules, and that
// SIGTERM sent to npm (as a process manager or `docker stop` sends it) stops the service cleanly
// rather than leaving it running, orphaned, with its port and the sandbox bank's books.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';

const run = promisify(execFile);
const REPO = path.resolve(__dirname, '../..');
/**
 * A copy of what `npm start` needs (package.json, scripts/, src/, sdk/, the tsconfigs), inside the repository,
 * so that its build writes its own dist/ and leaves the working tree's alone.
 */
const WORK_DIR = path.join(REPO, 'test-results', `quick-start-${process.pid}-${Date.now()}`);
const BUILD_DIR = path.join(WORK_DIR, 'dist');
const BUILD_TIMEOUT_MS = 180_000;

let dataDir: string;
let output = '';
/** `npm start`; the service is its child (the script execs it in place of the shell). */
let npm: ReturnType<typeof spawn> | null = null;
let port = 0;

/** The parent pid of a running process, from /proc (null when it is gone). */
function parentOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** Whether a process with this pid is running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The environment of a service started here: the embedded default whatever the test run's store (the
 * quick start is SQLite with no settings), warnings only, and `extra`.
 */
function quickStartEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
  for (const name of ['DATABASE_URL', 'DATABASE_SCHEMA', 'ADMIN_TOKEN', 'SECRET_KEY', 'SIMULATOR_URL']) delete env[name];
  return env;
}

/** The last line of the printed example: a service that printed it has started. */
const EXAMPLE_END = '--data-binary "$BODY"';

/** The signed curl example the service printed, as a merchant would paste it. */
const exampleIn = (printed: string): string => printed.slice(printed.indexOf("BODY='"), printed.indexOf(EXAMPLE_END) + EXAMPLE_END.length);

/**
 * What `child` prints (stdout and stderr) until it has printed the example, or a rejection naming
 * `what` if it exits first. `onOutput` sees every chunk, then and after.
 */
function untilExample(child: ReturnType<typeof spawn>, what: string, onOutput: (text: string) => void = () => undefined): Promise<string> {
  let printed = '';
  return new Promise<string>((resolve, reject) => {
    const seen = (chunk: Buffer): void => {
      printed += chunk.toString();
      onOutput(chunk.toString());
      if (printed.includes(EXAMPLE_END)) resolve(printed);
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before printing its example:\n${printed}`)));
  });
}

/** The pid of the service that published the data directory's bank (written once it listens). */
const published = (): { pid: number; url: string } => JSON.parse(fs.readFileSync(path.join(dataDir, 'simulator.json'), 'utf8'));

beforeAll(async () => {
  fs.mkdirSync(WORK_DIR, { recursive: true });
  for (const name of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) fs.copyFileSync(path.join(REPO, name), path.join(WORK_DIR, name));
  for (const name of ['scripts', 'src', 'sdk']) fs.cpSync(path.join(REPO, name), path.join(WORK_DIR, name), { recursive: true });
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(WORK_DIR, 'node_modules'), 'dir');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-quick-start-'));
  port = await freePort();
  const env = quickStartEnv({ PORT: String(port), DATA_DIR: dataDir, npm_config_update_notifier: 'false' });
  const started = spawn('npm', ['start'], { cwd: WORK_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  npm = started;
  await untilExample(started, 'npm start', (text) => (output += text));
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  // Only when a test failed before the last one stopped it.
  const service = fs.existsSync(path.join(dataDir ?? '', 'simulator.json')) ? published().pid : null;
  if (npm && npm.exitCode === null && npm.signalCode === null) {
    const exited = new Promise((resolve) => npm!.once('exit', resolve));
    npm.kill('SIGTERM');
    await exited;
  }
  if (service !== null && alive(service)) process.kill(service, 'SIGKILL');
  fs.rmSync(WORK_DIR, { recursive: true, force: true });
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the quick start: npm start', () => {
  it('prints a sandbox merchant and an example that answers its balance when pasted into a shell', async () => {
    expect(output).toMatch(/Sandbox MerchantID: mch_\w+/);
    expect(output).toMatch(/First operator: admin@paygate\.local \/ \S+/);
    const example = exampleIn(output);
    const { stdout } = await run('bash', ['-c', example], { timeout: 30_000 });
    const answer = JSON.parse(stdout) as { code: string; data: { currency: string; available: number } };
    expect(answer.code).toBe('200');
    expect(answer.data.currency).toBe('INR');
    expect(answer.data.available).toBeGreaterThanOrEqual(0);
  });

  /** The compiled service on `env`'s port and data directory; answers its exit code and what it printed. */
  async function startExpectingExit(extra: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
    const env = quickStartEnv(extra);
    const second = spawn(process.execPath, [path.join(BUILD_DIR, 'src', 'main.js')], { cwd: WORK_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    second.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    second.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    return { code, output: printed };
  }

  it('a second start on the same data directory and port fails and leaves the running service its bank', async () => {
    const before = published();
    // npm's own child: the shell of the script gave its place to the service.
    expect(parentOf(before.pid)).toBe(npm!.pid);
    const second = await startExpectingExit({ PORT: String(port), DATA_DIR: dataDir });
    expect(second.code).toBe(1);
    expect(second.output).toContain('EADDRINUSE');
    // The CLI still finds the running service's bank, and the bank still holds the books.
    expect(published()).toEqual(before);
    expect(fs.readFileSync(path.join(dataDir, 'simulator-state.jsonl.lock'), 'utf8').trim()).toBe(String(before.pid));
    const example = exampleIn(output);
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

  it('a second service on the same data directory says that its sandbox bank keeps no books, and names the holder', async () => {
    const before = published();
    const env = quickStartEnv({ PORT: String(await freePort()), DATA_DIR: dataDir });
    const second = spawn(process.execPath, [path.join(BUILD_DIR, 'src', 'main.js')], { cwd: WORK_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const printed = await untilExample(second, 'the second service');
      const warning = printed
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .find((line) => line.msg.includes('simulator-state.jsonl'));
      expect(warning?.level).toBe(40);
      expect(warning?.msg).toContain(`kept by process ${before.pid}`);
      expect(warning?.msg).toContain('in memory only');
      // It left the first's published bank and lock alone.
      expect(published()).toEqual(before);
    } finally {
      const exited = new Promise((resolve) => second.once('exit', resolve));
      second.kill('SIGTERM');
      await exited;
    }
    expect(fs.readFileSync(path.join(dataDir, 'simulator-state.jsonl.lock'), 'utf8').trim()).toBe(String(before.pid));
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

  // Last: it stops the service the other tests use.
  it('SIGTERM to npm start stops the service: port closed, bank lock and published record given back', async () => {
    const service = published().pid;
    expect(parentOf(service)).toBe(npm!.pid);
    const npmExited = new Promise<number | null>((resolve) => npm!.once('exit', resolve));
    npm!.kill('SIGTERM');
    expect(await npmExited).not.toBeNull();
    // npm waits for its script; once it is gone, so is the service, and what it held is given back.
    expect(alive(service)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'simulator.json'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'simulator-state.jsonl.lock'))).toBe(false);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(false)));
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  }, 60_000);
});
