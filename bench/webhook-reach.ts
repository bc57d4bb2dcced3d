// What webhook dispatch costs the machine per delivery, against the contract's 2,000 deliveries/s
// (section 13): the bench prints it beside the measured rate, so a MISS says whether the machine's
// cores could carry the target at all (docs/benchmarks.md, "Webhook dispatch").
import crypto from 'node:crypto';

export interface WebhookCosts {
  readonly targetPerSecond: number;
  readonly cores: number;
  /** CPU µs per delivery: the service (signing included), the receiver, PostgreSQL (0 on SQLite). */
  readonly serviceUs: number;
  readonly receiverUs: number;
  readonly postgresUs: number;
  /** CPU µs of one RSA-2048 SHA-512 signature, measured on its own. */
  readonly signUs: number;
}

const SIGN_SAMPLES = 200;

/**
 * CPU microseconds of one RSA-2048 SHA-512 signature on this machine now, with the OpenSSL the
 * service uses (this process runs the same Node). Every delivery carries one (contract section 8).
 */
export function rsaSignMicroseconds(): number {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const body = Buffer.from(`${'0'.repeat(128)}1700000000`);
  crypto.sign('sha512', body, privateKey);
  const before = process.cpuUsage();
  for (let i = 0; i < SIGN_SAMPLES; i++) crypto.sign('sha512', body, privateKey);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / SIGN_SAMPLES;
}

/**
 * What 2,000 deliveries/s cost this machine in CPU: the signature (measured on its own), the rest of
 * the service's work per delivery and the receiver's, against the cores there are. A MISS whose
 * sum exceeds the cores is physically out of reach here, however the dispatcher is arranged.
 */
export function webhookReach(figures: WebhookCosts): string[] {
  const { targetPerSecond, cores, serviceUs, receiverUs, postgresUs, signUs } = figures;
  const perDelivery = serviceUs + receiverUs + postgresUs;
  const needed = (targetPerSecond * perDelivery) / 1e6;
  const signingCores = (targetPerSecond * signUs) / 1e6;
  return [
    `reach: one RSA-2048 SHA-512 signature costs ${Math.round(signUs)} µs of CPU here, so ${targetPerSecond.toLocaleString('en-US')}/s ` +
      `spend ${signingCores.toFixed(2)} cores on signing alone; with the rest of the service's work (${Math.max(0, Math.round(serviceUs - signUs))} µs), ` +
      `the receiver's (${Math.round(receiverUs)} µs)${postgresUs > 0 ? ` and PostgreSQL's (${Math.round(postgresUs)} µs)` : ''} per delivery they need ` +
      `${needed.toFixed(2)} of the machine's ${cores} cores` +
      (needed > cores
        ? `: out of reach here; every core busy would give at most ${Math.round((cores * 1e6) / perDelivery).toLocaleString('en-US')} deliveries/s`
        : `: within the machine's CPU (${Math.round((cores * 1e6) / perDelivery).toLocaleString('en-US')} deliveries/s with every core busy)`),
  ];
}

/**
 * The part of a delivery no dispatcher can shed: its RSA signature (contract section 8) and the
 * receiver's handling of it. When those alone need more than the machine's cores at the target rate,
 * the target is out of reach here, and this answers why; otherwise null (a miss is the service's).
 */
export function webhookOutOfReach(figures: WebhookCosts): string | null {
  const { targetPerSecond, cores, receiverUs, signUs } = figures;
  const neededCores = (targetPerSecond * (signUs + receiverUs)) / 1e6;
  if (neededCores <= cores) return null;
  return (
    `the signatures (${Math.round(signUs)} µs each) and the receiver (${Math.round(receiverUs)} µs a delivery) alone need ` +
    `${neededCores.toFixed(2)} cores for ${targetPerSecond.toLocaleString('en-US')}/s, more than the machine's ${cores}`
  );
}
