// One HTTP delivery: vet the URL, sign, POST, and reduce whatever happens to an outcome the
// dispatcher records. Redirects are never followed, the whole exchange has one deadline, and only
// the first characters of the answer are kept.
import { Agent, request } from 'undici';
import { Deadline } from '../core/deadline.js';
import { AllowList, DestinationRefusedError, guardedLookup, systemResolver, vetDeliveryUrl, type HostResolver, type WebhookConfig } from './ssrf.js';

export const DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;
export const RESPONSE_SNIPPET_CHARS = 200;
const RESPONSE_READ_LIMIT_BYTES = 4096;
const MAX_ERROR_CHARS = 500;
const KEEP_ALIVE_MS = 4_000;

export interface DeliveryOutcome {
  readonly delivered: boolean;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly responseSnippet: string | null;
  /** Wall time of the HTTP exchange, signing excluded. */
  readonly durationMs: number;
}

export interface SenderOptions {
  readonly config: WebhookConfig;
  readonly timeoutMs?: number;
  /** DNS resolution; tests substitute a fixed table. */
  readonly resolve?: HostResolver;
}

const CONNECTION_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed temporarily',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed by the receiver',
};

const TIMEOUT_ERRORS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function describeError(error: unknown, timeoutMs: number, timedOut = false): string {
  if (timedOut) return `timed out after ${timeoutMs} ms`;
  if (error instanceof DestinationRefusedError) return error.message;
  const err = error as { code?: string; message?: string };
  if (err.code && TIMEOUT_ERRORS.has(err.code)) return `timed out after ${timeoutMs} ms`;
  const known = err.code ? CONNECTION_ERRORS[err.code] : undefined;
  const text = known ?? `${err.code ? `${err.code}: ` : ''}${err.message ?? String(error)}`;
  return text.slice(0, MAX_ERROR_CHARS);
}

async function readSnippet(body: AsyncIterable<Buffer>): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      // Stop reading (and let the connection go) rather than buffer an endless answer.
      if (size >= RESPONSE_READ_LIMIT_BYTES) break;
    }
  } catch {
    // The status already decided the outcome; a broken answer body only loses the snippet.
  }
  const text = Buffer.concat(chunks).toString('utf8').trim().slice(0, RESPONSE_SNIPPET_CHARS);
  return text.length > 0 ? text : null;
}

function failureOf(status: number): string {
  return status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
}

export class WebhookSender {
  private readonly allow: AllowList;
  private readonly agent: Agent;
  readonly timeoutMs: number;

  constructor(private readonly options: SenderOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
    this.allow = new AllowList(options.config.allowHosts);
    this.agent = new Agent({
      connect: { lookup: guardedLookup(this.allow, options.resolve ?? systemResolver), timeout: this.timeoutMs },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      keepAliveTimeout: KEEP_ALIVE_MS,
    });
  }

  /**
   * Delivers `body` to `rawUrl`. `sign` runs only once the URL passed the checks, so a refused
   * destination costs no signature.
   */
  async deliver(rawUrl: string, body: string, sign: () => Promise<Record<string, string>>): Promise<DeliveryOutcome> {
    let url: URL;
    try {
      url = vetDeliveryUrl(rawUrl, this.options.config, this.allow);
    } catch (error) {
      return { delivered: false, httpStatus: null, error: describeError(error, this.timeoutMs), responseSnippet: null, durationMs: 0 };
    }
    const headers = await sign();
    const startedAt = performance.now();
    const elapsed = (): number => Math.round(performance.now() - startedAt);
    const deadline = new Deadline(this.timeoutMs);
    try {
      const answer = await request(url, { method: 'POST', headers, body, dispatcher: this.agent, signal: deadline.signal });
      const responseSnippet = await readSnippet(answer.body);
      const delivered = answer.statusCode >= 200 && answer.statusCode < 300;
      const error = delivered ? null : failureOf(answer.statusCode);
      return { delivered, httpStatus: answer.statusCode, error, responseSnippet, durationMs: elapsed() };
    } catch (error) {
      return { delivered: false, httpStatus: null, error: describeError(error, this.timeoutMs, deadline.passed), responseSnippet: null, durationMs: elapsed() };
    } finally {
      deadline.clear();
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
