// Operator commands for console users: the first operator (there is no console to invite from yet),
// invitations for merchant users, and the list. No mail server: links and passwords are printed here.
import { generatePassword } from '../people/passwords.js';
import { isMerchantRole, isOperatorRole } from '../people/roles.js';
import { flagString, requireFlag } from './args.js';
import { cliActor, type CliCommand } from './command.js';

const invitationLink = (publicBaseUrl: string, token: string): string => `${publicBaseUrl}/console/invitations/${token}`;

export const userCommands: CliCommand[] = [
  {
    name: 'user create-operator',
    summary: 'Create a console operator: prints a generated password (TOTP is set up at first sign-in), or with --invite an invitation link',
    usage: 'user create-operator --email EMAIL [--role admin|support] [--invite]',
    async run(args, services, io) {
      const email = requireFlag(args, 'email');
      const role = flagString(args, 'role') ?? 'admin';
      if (!isOperatorRole(role)) throw new Error('--role must be admin or support');
      if (args.flags.invite === true) {
        const invitation = await services.people.invite({ email, kind: 'operator', role }, cliActor());
        io.out(`Invitation for ${invitation.email} (${role}), single use, until ${invitation.expiresAt}:`);
        io.out(invitationLink(services.config.publicBaseUrl, invitation.token));
        return 0;
      }
      const password = generatePassword();
      const user = await services.people.createUser({ email, kind: 'operator', role, password }, cliActor());
      io.out(`Operator ${user.email} (${role}) created.`);
      io.out(`Password: ${password}`);
      io.out(`Sign in at ${services.config.publicBaseUrl}/console and set up the authenticator app; then change the password under Your account.`);
      return 0;
    },
  },
  {
    name: 'user invite',
    summary: "Invite a merchant's user (owner, developer or viewer): prints the single-use link, valid 72 hours",
    usage: 'user invite --merchant ID --email EMAIL --role owner|developer|viewer',
    async run(args, services, io) {
      const merchantId = requireFlag(args, 'merchant');
      const role = requireFlag(args, 'role');
      if (!isMerchantRole(role)) throw new Error('--role must be owner, developer or viewer');
      await services.merchants.get(merchantId);
      const invitation = await services.people.invite({ email: requireFlag(args, 'email'), kind: 'merchant', role, merchantId }, cliActor());
      io.out(`Invitation for ${invitation.email} (${role} of ${merchantId}), single use, until ${invitation.expiresAt}:`);
      io.out(invitationLink(services.config.publicBaseUrl, invitation.token));
      return 0;
    },
  },
  {
    name: 'user list',
    summary: 'List console users (operators and merchant users), optionally of one merchant',
    usage: 'user list [--merchant ID] [--json]',
    async run(args, services, io) {
      const users = [];
      let cursor: string | undefined;
      do {
        const page = await services.people.listUsers({ merchantId: flagString(args, 'merchant'), cursor, limit: 200 });
        users.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      if (args.flags.json === true) {
        io.out(JSON.stringify(users));
        return 0;
      }
      for (const u of users) io.out(`${u.id}  ${u.email.padEnd(32)}  ${u.role.padEnd(9)}  ${u.merchantId ?? '-'}  totp:${u.totpEnabled ? 'on' : 'off'}  ${u.status}`);
      return 0;
    },
  },
];
