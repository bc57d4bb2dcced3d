// The CLI's console user commands as an operator runs them (a child process on the test server's
// store): the first operator with a printed password that signs in (then must enrol TOTP), an operator
// invitation link, a merchant user's invitation link that works once, and the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TIMEOUT_MS, runCli, type CliResult } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ConsoleClient, csrfOf, PASSWORD } from './console-client.js';


let server: TestServer;

const cli = (...args: string[]): Promise<CliResult> => runCli(server, args, { PUBLIC_BASE_URL: server.baseUrl });

const linkIn = (stdout: string): string => new URL(/(http\S+\/console\/invitations\/\S+)/.exec(stdout)![1]!).pathname;

describe('console users from the CLI', () => {
  beforeAll(async () => {
    server = await startTestServer({}, { worker: false });
  });
  afterAll(async () => server?.close());

  it('creates the first operator with a printed password that signs in and must then set up TOTP', async () => {
    const made = await cli('user', 'create-operator', '--email', 'First@Ops.example');
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const password = /Password: (\S+)/.exec(made.stdout)![1]!;
    const client = new ConsoleClient(server);
    expect((await client.login('first@ops.example', password)).location).toBe('/console/enrol');
    const again = await cli('user', 'create-operator', '--email', 'first@ops.example');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has a console account/);
  }, CLI_TIMEOUT_MS);

  it('prints invitation links for an operator and for a merchant user; each works once', async () => {
    const shop = await server.createMerchant();
    const [operator, owner, wrong] = await Promise.all([
      cli('user', 'create-operator', '--email', 'second@ops.example', '--role', 'support', '--invite'),
      cli('user', 'invite', '--merchant', shop.id, '--email', 'owner@shop.example', '--role', 'owner'),
      cli('user', 'invite', '--merchant', shop.id, '--email', 'x@shop.example', '--role', 'admin'),
    ]);
    expect(wrong.code).not.toBe(0);
    expect(operator.code).toBe(0);
    expect(owner.code).toBe(0);
    const invitee = new ConsoleClient(server);
    const path = linkIn(owner.stdout);
    const form = await invitee.get(path);
    expect(form.text).toMatch(/Owner/);
    const accepted = await invitee.request('POST', path, { _csrf: csrfOf(form.text), password: PASSWORD, confirm: PASSWORD });
    expect(accepted.location).toBe('/console');
    expect((await new ConsoleClient(server).get(path)).status).toBe(404);
    const supportPath = linkIn(operator.stdout);
    const supportForm = await new ConsoleClient(server).get(supportPath);
    expect(supportForm.text).toMatch(/Operator support/);
    const list = await cli('user', 'list', '--merchant', shop.id, '--json');
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ email: 'owner@shop.example', role: 'owner', merchantId: shop.id })]);
  }, CLI_TIMEOUT_MS);
});
