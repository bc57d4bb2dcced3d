// What a benchmark case gets to work with: the running service, the operator API, merchants with keys
// the signer knows, and a way to make single signed calls while setting up (outside the timed phase).
import type { StoreKind } from './service.js';
import { apiPath, type BenchMerchant, type KeyType, type RequestSigner } from './signing.js';

export interface HttpResult {
  readonly status: number;
  /** The parsed JSON answer (the envelope for API calls), or the raw text when it is not JSON. */
  readonly body: any;
}

export interface BenchContext {
  readonly store: StoreKind;
  readonly baseUrl: string;
  /** The service's process id (for CPU accounting in custom cases). */
  readonly servicePid: number;
  /** Where the service keeps its data: the SQLite file, or the PostgreSQL schema (for bulk seeding). */
  readonly database: { readonly sqliteFile: string | null; readonly pgSchema: string | null };
  readonly adminToken: string;
  /** The run's shared merchants (`--merchants`, default 20), RSA-SHA512 and HMAC-SHA256 alternating. */
  readonly merchants: readonly BenchMerchant[];
  /** Calls the operator API (`/admin...`) with the bearer token. */
  admin(method: string, path: string, body?: unknown): Promise<HttpResult>;
  /** Creates merchants through `POST /admin/merchants` and registers their keys with the signer. */
  createMerchants(count: number, options?: { keyTypes?: readonly KeyType[]; namePrefix?: string; mode?: 'sandbox' | 'live' }): Promise<BenchMerchant[]>;
  /** One signed merchant API call, for setting up data before a timed phase. */
  call(merchant: BenchMerchant, path: string, body: object): Promise<HttpResult>;
  /** Somewhere cases may keep what later cases can reuse (e.g. created payments). */
  readonly shared: Map<string, unknown>;
}

async function httpJson(url: string, init: RequestInit): Promise<HttpResult> {
  const response = await fetch(url, init);
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

/** Alternates the given key types (default RSA first, so at least half of an odd count is RSA). */
const DEFAULT_KEY_TYPES: readonly KeyType[] = ['RSA-SHA512', 'HMAC-SHA256'];

export function createContext(options: {
  store: StoreKind;
  baseUrl: string;
  servicePid: number;
  database: { readonly sqliteFile: string | null; readonly pgSchema: string | null };
  adminToken: string;
  signer: RequestSigner;
}): BenchContext & { setMerchants(merchants: readonly BenchMerchant[]): void } {
  const { baseUrl, adminToken, signer } = options;
  let merchants: readonly BenchMerchant[] = [];
  let created = 0;

  const admin = (method: string, path: string, body?: unknown): Promise<HttpResult> =>
    httpJson(`${baseUrl}/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const createOne = async (keyType: KeyType, name: string, mode: 'sandbox' | 'live'): Promise<BenchMerchant> => {
    const result = await admin('POST', '/merchants', { name, keyType, mode, rateLimitPerSecond: 1_000_000 });
    const data = result.body?.data;
    if (result.status !== 200 || !data?.merchant?.id) {
      throw new Error(`POST /admin/merchants answered ${result.status}: ${JSON.stringify(result.body).slice(0, 300)}`);
    }
    const key =
      keyType === 'RSA-SHA512'
        ? { type: 'RSA-SHA512' as const, privateKeyPem: String(data.key.privateKeyPem) }
        : { type: 'HMAC-SHA256' as const, secret: String(data.key.secret) };
    return { id: String(data.merchant.id), name, keyType, key, keyIndex: signer.register(key) };
  };

  return {
    store: options.store,
    baseUrl,
    servicePid: options.servicePid,
    database: options.database,
    adminToken,
    get merchants() {
      return merchants;
    },
    setMerchants(list) {
      merchants = list;
    },
    admin,
    async createMerchants(count, opts = {}) {
      const keyTypes = opts.keyTypes ?? DEFAULT_KEY_TYPES;
      const out: BenchMerchant[] = [];
      // A few at a time: the service generates each RSA key pair (tens of ms of its CPU).
      for (let from = 0; from < count; from += 4) {
        const batch = Array.from({ length: Math.min(4, count - from) }, (_, j) => {
          const n = created + from + j;
          return createOne(keyTypes[(from + j) % keyTypes.length]!, `${opts.namePrefix ?? 'Bench Merchant'} ${n + 1}`, opts.mode ?? 'sandbox');
        });
        out.push(...(await Promise.all(batch)));
      }
      created += count;
      return out;
    },
    async call(merchant, path, body) {
      const [request] = await signer.sign([{ merchant, path, body }]);
      return httpJson(`${baseUrl}${apiPath(path)}`, { method: 'POST', headers: request!.headers, body: request!.body });
    },
    shared: new Map(),
  };
}
