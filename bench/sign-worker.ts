// Worker thread for bench/signing.ts: signs batches of (key, body, timestamp) with the SDK's own signing
// code, so the benchmark's requests are exactly what a merchant's integration sends.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { signHmacSha256, signRsaSha512, type MerchantKey } from '../sdk/src/signing.js';

export type WorkerMessage =
  | { readonly kind: 'key'; readonly index: number; readonly key: MerchantKey }
  | { readonly kind: 'sign'; readonly job: number; readonly keys: number[]; readonly bodies: string[]; readonly timestamps: string[] };

export interface WorkerReply {
  readonly job: number;
  readonly signatures?: string[];
  readonly error?: string;
}

type Signer = (body: string, timestamp: string) => string;
const signers: Signer[] = [];

function signerFor(key: MerchantKey): Signer {
  if (key.type === 'HMAC-SHA256') return (body, timestamp) => signHmacSha256(key.secret, body, timestamp);
  const privateKey: KeyObject = createPrivateKey(key.privateKeyPem);
  return (body, timestamp) => signRsaSha512(privateKey, body, timestamp);
}

parentPort!.on('message', (message: WorkerMessage) => {
  if (message.kind === 'key') {
    signers[message.index] = signerFor(message.key);
    return;
  }
  try {
    const signatures = message.bodies.map((body, i) => {
      const signer = signers[message.keys[i]!];
      if (!signer) throw new Error(`no key ${message.keys[i]}`);
      return signer(body, message.timestamps[i]!);
    });
    parentPort!.postMessage({ job: message.job, signatures } satisfies WorkerReply);
  } catch (error) {
    parentPort!.postMessage({ job: message.job, error: String(error) } satisfies WorkerReply);
  }
});
