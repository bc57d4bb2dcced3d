// Runs the operator CLI as an operator would: a child process over the test server's own store, with
// the server's secrets, so the server in this process keeps answering while the command runs.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_ADMIN_TOKEN, TEST_SECRET_KEY, type TestServer } from './server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI_TIMEOUT_MS = 120_000;

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The CLI's environment for this server's store; `extra` adds or overrides settings (e.g. PUBLIC_BASE_URL). */
function cliEnv(server: TestServer, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { database } = server;
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: 'silent',
    DATA_DIR: database.dataDir,
    SQLITE_FILE: 'test.sqlite',
    DATABASE_URL: database.databaseUrl ?? '',
    DATABASE_SCHEMA: database.databaseSchema ?? '',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SECRET_KEY: TEST_SECRET_KEY,
    ...extra,
  };
}

export function runCli(server: TestServer, args: readonly string[], extra: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { cwd: ROOT, env: cliEnv(server, extra), timeout: CLI_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        const killed = error && error.signal ? `[killed by ${error.signal}]` : '';
        resolve({ code, stdout, stderr: stderr + killed });
      },
    );
  });
}
