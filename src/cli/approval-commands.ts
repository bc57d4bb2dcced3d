// Operator commands of maker-checker and key rotation: a merchant's payout approval setting, and
// rotating the service's webhook signing key (the merchant's webhook secret: `merchant webhook-secret`).
import { CURRENCIES } from '../core/money.js';
import { flagString, requireFlag } from './args.js';
import { cliActor, type CliCommand } from './command.js';

const json = (value: unknown): string => JSON.stringify(value, null, 2);

/** `INR=50000,NGN=1000000` -> { INR: 50000, NGN: 1000000 }; "none" turns approval off. */
function thresholdsOf(raw: string): Record<string, number> | null {
  if (raw === 'none') return null;
  const thresholds: Record<string, number> = {};
  for (const pair of raw.split(',').filter((part) => part.trim() !== '')) {
    const [currency, amount] = pair.split('=').map((part) => part.trim());
    if (!currency || amount === undefined || !/^\d+(\.\d{1,2})?$/.test(amount)) {
      throw new Error(`--threshold takes CURRENCY=AMOUNT pairs separated by commas (${CURRENCIES.join(', ')}), or none`);
    }
    thresholds[currency.toUpperCase()] = Number(amount);
  }
  return thresholds;
}

export const approvalCommands: CliCommand[] = [
  {
    name: 'merchant payout-approval',
    summary: 'Show or set the payout approval (maker-checker) thresholds and timeout',
    usage: 'merchant payout-approval --merchant ID [--threshold CUR=AMOUNT,...|none] [--timeout SECONDS]',
    async run(args, services, io) {
      const merchantId = requireFlag(args, 'merchant');
      const threshold = flagString(args, 'threshold');
      const timeout = flagString(args, 'timeout');
      if (threshold === undefined && timeout === undefined) {
        io.out(json(await services.payouts.approvalSetting(merchantId)));
        return 0;
      }
      const current = await services.payouts.approvalSetting(merchantId);
      const thresholdAmount = threshold === undefined ? current.thresholdAmount : thresholdsOf(threshold);
      const timeoutSeconds = timeout === undefined ? current.timeoutSeconds : Number(timeout);
      io.out(json(await services.payouts.setApprovalSetting(merchantId, { thresholdAmount, timeoutSeconds }, cliActor())));
      return 0;
    },
  },
  {
    name: 'service rotate-key',
    summary: 'Rotate the service webhook signing key; the replaced one stays listed for SERVICE_KEY_OVERLAP_SECONDS',
    usage: 'service rotate-key',
    async run(_args, services, io) {
      io.out(json(await services.webhooks.rotateServiceKey(cliActor())));
      return 0;
    },
  },
];
