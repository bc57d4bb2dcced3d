// Secrets at rest: HMAC API secrets and webhook secrets are stored AES-256-GCM encrypted with the
// service's secret key, so a copy of the database alone does not reveal them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';

export class SecretBox {
  private readonly key: Buffer;

  constructor(keyBase64: string) {
    this.key = Buffer.from(keyBase64, 'base64');
    if (this.key.length !== 32) throw new Error('config: SECRET_KEY must be base64 of exactly 32 bytes');
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('sealed secret is malformed');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }

  /**
   * A 32-byte key for one purpose (HKDF-SHA256 of the service key, the purpose as info), so a MAC made
   * for one purpose (a list cursor, a download URL) is never valid for another and the key itself never signs.
   */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(crypto.hkdfSync('sha256', this.key, Buffer.alloc(0), `paygate:${purpose}`, 32));
  }
}

export interface LocalSecrets {
  readonly adminToken: string;
  readonly secretKey: string;
}

/**
 * For the embedded quick start: secrets not given in the environment are generated once and kept
 * in dataDir/secrets.json (mode 0600), so a restart keeps the same admin token and key.
 */
export function loadOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, 'secrets.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as LocalSecrets;
  fs.mkdirSync(dataDir, { recursive: true });
  const secrets: LocalSecrets = {
    adminToken: `adm_${crypto.randomBytes(24).toString('base64url')}`,
    secretKey: crypto.randomBytes(32).toString('base64'),
  };
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
  return secrets;
}
