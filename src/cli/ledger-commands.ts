// Operator commands for money: verify the ledger, read balances and journals, credit lines,
// security deposits, adjustments, fees, limits and a settlement run. Amounts are major units ("123.45").
import { isoFromMs } from '../core/clock.js';
import type { Direction } from '../domain/methods.js';
import { formatMinor, parseMajorString, type Currency, type Minor } from '../core/money.js';
import type { AdjustableKind } from '../ledger/operator.js';
import { ADJUSTABLE_KINDS } from '../ledger/operator.js';
import { balanceView, type Balances } from '../ledger/queries.js';
import type { OperatorResult } from '../ledger/service.js';
import type { Services } from '../services.js';
import { flagString, requireCurrencyFlag, requireFlag, type ParsedArgs } from './args.js';
import { cliActor, type CliCommand, type CliOutput } from './command.js';

/** A major-unit amount such as "123.45"; signed only where the command allows it. */
function amountOf(args: ParsedArgs, name: string, signed = false): Minor {
  const minor = parseMajorString(requireFlag(args, name));
  if (minor === null) throw new Error(`--${name} must be a number with at most 2 decimals, e.g. 123.45`);
  if (!signed && minor <= 0n) throw new Error(`--${name} must be positive`);
  if (minor === 0n) throw new Error(`--${name} must not be zero`);
  return minor;
}

function reasonOf(args: ParsedArgs): string {
  const reason = flagString(args, 'reason')?.trim();
  if (!reason) throw new Error('--reason is required: say why this money moves');
  return reason;
}

const wantsJson = (args: ParsedArgs): boolean => args.flags.json === true;

function printBalances(io: CliOutput, args: ParsedArgs, merchantId: string, currency: Currency, balances: Balances): void {
  if (wantsJson(args)) {
    io.out(JSON.stringify({ merchantId, ...balanceView(currency, balances) }));
    return;
  }
  io.out(`${merchantId} ${currency}`);
  for (const [kind, amountMinor] of Object.entries(balances)) io.out(`  ${kind.padEnd(10)} ${formatMinor(amountMinor).padStart(18)}`);
}

/** Shared tail of every operator move: show the entry and the balances after it. */
async function report(io: CliOutput, args: ParsedArgs, services: Services, merchantId: string, currency: Currency, result: OperatorResult): Promise<number> {
  const balances = await services.ledger.balances(merchantId, currency);
  if (wantsJson(args)) {
    io.out(JSON.stringify({ entryId: result.entryId, replayed: result.replayed, balances: balanceView(currency, balances) }));
    return 0;
  }
  io.out(`${result.replayed ? 'Already posted' : 'Posted'} entry ${result.entryId}`);
  printBalances(io, args, merchantId, currency, balances);
  return 0;
}

function moveOf(args: ParsedArgs, signed = false) {
  return {
    merchantId: requireFlag(args, 'merchant'),
    currency: requireCurrencyFlag(args),
    amountMinor: amountOf(args, 'amount', signed),
    reason: reasonOf(args),
    actor: cliActor(),
    ref: flagString(args, 'idempotency-key'),
  };
}

function directionOf(args: ParsedArgs): Direction {
  const direction = requireFlag(args, 'direction');
  if (direction !== 'payin' && direction !== 'payout') throw new Error('--direction must be payin or payout');
  return direction;
}

const verifyCommand: CliCommand = {
  name: 'ledger verify',
  summary: 'Check every journal sums to zero, cached balances equal their postings, nothing is negative (exit 1 on any violation)',
  usage: 'ledger verify [--json]',
  async run(args, services, io) {
    const violations = await services.ledger.verify();
    if (wantsJson(args)) io.out(JSON.stringify({ ok: violations.length === 0, violations }));
    else if (violations.length === 0) io.out('ledger OK');
    else for (const v of violations) io.err(`${v.code}  ${v.subject}  ${v.detail}`);
    return violations.length === 0 ? 0 : 1;
  },
};

const journalCommand: CliCommand = {
  name: 'ledger journal',
  summary: "List a merchant's journal entries, newest first",
  usage: 'ledger journal --merchant ID [--currency C] [--limit N] [--before ENTRY_ID] [--json]',
  async run(args, services, io) {
    const merchantId = requireFlag(args, 'merchant');
    const limit = Number(flagString(args, 'limit') ?? '50');
    if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit must be a positive integer');
    const currency = flagString(args, 'currency') === undefined ? undefined : requireCurrencyFlag(args);
    const entries = await services.ledger.journal(merchantId, { limit, before: flagString(args, 'before'), currency });
    if (wantsJson(args)) {
      const view = entries.map((e) => ({ ...e, createdAt: isoFromMs(e.createdAtMs), postings: e.postings.map((p) => ({ ...p, amountMinor: p.amountMinor.toString() })) }));
      io.out(JSON.stringify(view));
      return 0;
    }
    for (const e of entries) {
      io.out(`${isoFromMs(e.createdAtMs)}  ${e.id}  ${e.kind}  ${e.currency}  ref=${e.ref}${e.reason ? `  reason="${e.reason}"` : ''}`);
      for (const p of e.postings) io.out(`    ${p.accountId.padEnd(48)} ${formatMinor(p.amountMinor).padStart(18)}`);
    }
    return 0;
  },
};

const balanceCommand: CliCommand = {
  name: 'ledger balance',
  summary: "Show a merchant's five balances in one currency",
  usage: 'ledger balance --merchant ID --currency C [--json]',
  async run(args, services, io) {
    const merchantId = requireFlag(args, 'merchant');
    const currency = requireCurrencyFlag(args);
    await services.merchants.get(merchantId);
    printBalances(io, args, merchantId, currency, await services.ledger.balances(merchantId, currency));
    return 0;
  },
};

const adjustCommand: CliCommand = {
  name: 'ledger adjust',
  summary: 'Correct available, pending or security against the platform adjustments account (reason required)',
  usage: 'ledger adjust --merchant ID --currency C --account available|pending|security --amount=-12.34 --reason "..." [--idempotency-key K] [--json]',
  async run(args, services, io) {
    const account = requireFlag(args, 'account');
    if (!(ADJUSTABLE_KINDS as readonly string[]).includes(account)) throw new Error(`--account must be one of ${ADJUSTABLE_KINDS.join(', ')}`);
    const move = moveOf(args, true);
    const result = await services.ledger.adjust({ ...move, account: account as AdjustableKind });
    return report(io, args, services, move.merchantId, move.currency, result);
  },
};

const settleCommand: CliCommand = {
  name: 'ledger settle',
  summary: 'Run the settlement job once: pending money past its delay moves to available (repaying used credit first)',
  usage: 'ledger settle [--json]',
  async run(args, services, io) {
    const run = await services.ledger.settlePending();
    if (wantsJson(args)) {
      const groups = run.groups.map((g) => ({ ...g, settledMinor: g.settledMinor.toString(), repaidCreditMinor: g.repaidCreditMinor.toString() }));
      io.out(JSON.stringify({ groups, more: run.more }));
      return 0;
    }
    for (const g of run.groups) io.out(`${g.merchantId} ${g.currency}  settled ${formatMinor(g.settledMinor)}  repaid credit ${formatMinor(g.repaidCreditMinor)}`);
    io.out(`${run.groups.length} merchant balances settled${run.more ? '; more is due, run again' : ''}`);
    return 0;
  },
};

/** A pair of commands that move money one way or the other with the same flags. */
function moveCommand(name: string, summary: string, pick: (services: Services) => (move: ReturnType<typeof moveOf>) => Promise<OperatorResult>): CliCommand {
  return {
    name,
    summary,
    usage: `${name} --merchant ID --currency C --amount 123.45 --reason "..." [--idempotency-key K] [--json]`,
    async run(args, services, io) {
      const move = moveOf(args);
      return report(io, args, services, move.merchantId, move.currency, await pick(services)(move));
    },
  };
}

const feeCommand: CliCommand = {
  name: 'fee set',
  summary: "Set a merchant's fee for a currency, method and direction: basis points plus a fixed amount",
  usage: 'fee set --merchant ID --currency C --method M --direction payin|payout --bps N --fixed 1.00 [--json]',
  async run(args, services, io) {
    const bps = Number(requireFlag(args, 'bps'));
    if (!Number.isInteger(bps)) throw new Error('--bps must be an integer (100 = 1%)');
    const fixedMinor = parseMajorString(flagString(args, 'fixed') ?? '0');
    if (fixedMinor === null) throw new Error('--fixed must be a number with at most 2 decimals');
    const shown = { merchantId: requireFlag(args, 'merchant'), currency: requireCurrencyFlag(args), method: requireFlag(args, 'method').toUpperCase(), direction: directionOf(args), bps, fixed: formatMinor(fixedMinor) };
    await services.fees.setFee({ ...shown, bps: BigInt(bps), fixedMinor }, cliActor());
    io.out(wantsJson(args) ? JSON.stringify(shown) : `fee ${shown.currency} ${shown.method} ${shown.direction}: ${bps} bps + ${shown.fixed}`);
    return 0;
  },
};

const limitCommand: CliCommand = {
  name: 'limit set',
  summary: "Set a merchant's amount bounds for a currency, method and direction",
  usage: 'limit set --merchant ID --currency C --method M --direction payin|payout --min 100 --max 500000 [--json]',
  async run(args, services, io) {
    const setting = {
      merchantId: requireFlag(args, 'merchant'),
      currency: requireCurrencyFlag(args),
      method: requireFlag(args, 'method').toUpperCase(),
      direction: directionOf(args),
      minMinor: amountOf(args, 'min'),
      maxMinor: amountOf(args, 'max'),
    };
    await services.fees.setLimits(setting, cliActor());
    const shown = { merchantId: setting.merchantId, currency: setting.currency, method: setting.method, direction: setting.direction, min: formatMinor(setting.minMinor), max: formatMinor(setting.maxMinor) };
    io.out(wantsJson(args) ? JSON.stringify(shown) : `limits ${shown.currency} ${shown.method} ${shown.direction}: ${shown.min} to ${shown.max}`);
    return 0;
  },
};

export const ledgerCommands: CliCommand[] = [
  verifyCommand,
  journalCommand,
  balanceCommand,
  adjustCommand,
  settleCommand,
  moveCommand('credit grant', 'Grant credit: the line and its unused part grow by the amount', (s) => (m) => s.ledger.grantCredit(m)),
  moveCommand('credit lower', 'Lower a credit line by an amount of its unused part', (s) => (m) => s.ledger.lowerCredit(m)),
  moveCommand('security deposit', 'Move funds from available into the security deposit', (s) => (m) => s.ledger.moveToSecurity(m)),
  moveCommand('security release', 'Move funds from the security deposit back to available', (s) => (m) => s.ledger.releaseSecurity(m)),
  feeCommand,
  limitCommand,
];
