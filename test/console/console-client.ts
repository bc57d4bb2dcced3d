// A browser-like client of the console over plain HTTP: a cookie jar, forms posted urlencoded with the
// page's hidden CSRF token, redirects not followed (tests look at them). And the people tests need:
// an operator with TOTP set up, its current code from the same TOTP code path the service uses.
import { totpCode } from '../../src/people/totp.js';
import type { TestServer } from '../helpers/server.js';

export interface ConsoleResponse {
  readonly status: number;
  readonly location: string | null;
  readonly text: string;
  readonly headers: Headers;
}

export class ConsoleClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly server: TestServer) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<ConsoleResponse> {
    const response = await fetch(`${this.server.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (attributes.some((a) => /max-age=0/i.test(a.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, location: response.headers.get('location'), text: await response.text(), headers: response.headers };
  }

  get(path: string): Promise<ConsoleResponse> {
    return this.request('GET', path);
  }

  /** Posts a form with the CSRF token of the page at `formPage` (as a browser would). */
  async submit(formPage: string, action: string, fields: Record<string, string>): Promise<ConsoleResponse> {
    const page = await this.get(formPage);
    return this.request('POST', action, { _csrf: csrfOf(page.text), ...fields });
  }

  async login(email: string, password: string, code = ''): Promise<ConsoleResponse> {
    return this.submit('/console/login', '/console/login', { email, password, code });
  }
}

export function csrfOf(pageHtml: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(pageHtml);
  if (!match) throw new Error('no CSRF field on the page');
  return match[1]!;
}

/** The enrolment page's key (shown in groups of four for typing). */
export function secretOf(pageHtml: string): string {
  const match = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(pageHtml);
  if (!match) throw new Error('no TOTP key on the page');
  return match[1]!.replace(/ /g, '');
}

export const PASSWORD = 'a long test password 1';

export interface EnrolledUser {
  readonly email: string;
  readonly password: string;
  readonly secret: string;
  readonly recoveryCodes: string[];
}

/**
 * Creates the user, signs in and (for operators, or when `enrol`) sets up TOTP through the pages.
 * The server's clock is moved a step after enrolment so the next sign-in code is a fresh one.
 */
export async function createAndEnrol(
  server: TestServer,
  client: ConsoleClient,
  user: { email: string; kind: 'operator' | 'merchant'; role: string; merchantId?: string },
): Promise<EnrolledUser> {
  await server.services.people.createUser({ ...user, password: PASSWORD }, 'test');
  const login = await client.login(user.email, PASSWORD);
  if (login.location !== '/console/enrol') return { email: user.email, password: PASSWORD, secret: '', recoveryCodes: [] };
  const enrol = await client.get('/console/enrol');
  const secret = secretOf(enrol.text);
  const done = await client.request('POST', '/console/enrol', { _csrf: csrfOf(enrol.text), code: totpCode(secret, server.clock.nowMs()) });
  const recoveryCodes = [...done.text.matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g)].map((m) => m[1]!);
  server.clock.advance(30_000);
  return { email: user.email, password: PASSWORD, secret, recoveryCodes };
}

export const codeNow = (server: TestServer, secret: string): string => totpCode(secret, server.clock.nowMs());
