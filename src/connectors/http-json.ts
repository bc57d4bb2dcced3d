// The one way a live connector talks to its provider: JSON over keep-alive HTTP connections to the
// provider's origin, each request with a deadline. What every connector agreed on lives here: no
// answer in time, a broken connection, a 5xx or a body that cannot be read says nothing about what
// the provider did, so it is UpstreamUnavailableError (the caller looks the object up or retries);
// any other answer is handed back as {status, body} for the connector's own flows to judge.
import { Pool } from 'undici';
import { UpstreamUnavailableError } from './channel.js';
import { Deadline } from '../core/deadline.js';

export interface JsonAnswer {
  readonly status: number;
  readonly body: unknown;
}

export type HttpMethod = 'GET' | 'POST';

/** Where the provider is and how long a request may take (ConnectorOptions and each channel's options have both). */
export interface JsonTarget {
  /** The provider's origin and optional base path, as the operator configured it. */
  readonly baseUrl: string;
  /** Deadline of each request, connection to last body byte. */
  readonly timeoutMs: number;
}

export interface JsonClientOptions {
  /** Headers on every request (typically the credentials); a request's own headers win. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Statuses below 500 the provider uses for "not now" (rate limits, a request still running): also unknown. */
  readonly unknownStatuses?: readonly number[];
  /** Reads the body text; throwing means unreadable. Default JSON.parse. */
  readonly parse?: (text: string, status: number) => unknown;
  readonly connections?: number;
}

export interface JsonRequest {
  readonly method: HttpMethod;
  /** Below the base path, with its query string if any (the query is never put in a message). */
  readonly path: string;
  /** An object is sent as JSON; a string as it is (already serialized or form-encoded). */
  readonly body?: object | string;
  readonly headers?: Readonly<Record<string, string>>;
}

const DEFAULT_CONNECTIONS = 8;
const KEEP_ALIVE_MS = 30_000;

export class JsonClient {
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly unknownStatuses: ReadonlySet<number>;
  private readonly parse: (text: string, status: number) => unknown;
  private readonly timeoutMs: number;

  /** `connector` is the connector's name, first word of every error message (`xendit GET /v2/payouts: HTTP 503`). */
  constructor(
    private readonly connector: string,
    target: JsonTarget,
    private readonly options: JsonClientOptions = {},
  ) {
    const url = new URL(target.baseUrl);
    this.timeoutMs = target.timeoutMs;
    // The connect timeout too: undici ends a request still connecting only when its socket connects
    // (or undici's own 10 s connect timeout passes), whatever its signal says meanwhile.
    this.pool = new Pool(url.origin, { connections: options.connections ?? DEFAULT_CONNECTIONS, keepAliveTimeout: KEEP_ALIVE_MS, connect: { timeout: this.timeoutMs } });
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.unknownStatuses = new Set(options.unknownStatuses ?? []);
    this.parse = options.parse ?? ((text) => JSON.parse(text) as unknown);
  }

  /** One request; resolves with any answer the caller must judge, rejects when the outcome is unknown. */
  async request(request: JsonRequest): Promise<JsonAnswer> {
    const what = `${this.connector} ${request.method} ${withoutQuery(request.path)}`;
    const body = request.body === undefined || typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    let status: number;
    let text: string;
    const deadline = new Deadline(this.timeoutMs);
    try {
      const response = await this.pool.request({
        method: request.method,
        path: this.basePath + request.path,
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...this.options.headers,
          ...request.headers,
        },
        body,
        signal: deadline.signal,
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      const why = deadline.passed ? 'timed out' : describe(error);
      throw new UpstreamUnavailableError(`${what}: no answer (${why}; deadline ${this.timeoutMs} ms)`, { cause: error });
    } finally {
      deadline.clear();
    }
    if (status >= 500 || this.unknownStatuses.has(status)) throw new UpstreamUnavailableError(`${what}: HTTP ${status}`);
    try {
      return { status, body: this.parse(text, status) };
    } catch (error) {
      throw new UpstreamUnavailableError(`${what}: unreadable answer (HTTP ${status})`, { cause: error });
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** A path as it may appear in a log line: the query can carry account numbers and signatures. */
export const withoutQuery = (path: string): string => path.split('?')[0]!;

/** An error in one line for a message: its class and text, never its stack. */
export const describe = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
