import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { hashPassword } from '../platform/auth/passwords.js';

/**
 * Test helper (not used by the server): a minimal browser over `app.inject` that keeps cookies
 * per path and follows redirects within our origin, for driving the sign-in flow in tests.
 */
export interface Page {
  url: string;
  status: number;
  headers: OutgoingHttpHeaders;
  body: string;
  location: string | undefined;
}

interface Cookie {
  name: string;
  value: string;
  path: string;
}

export class TestBrowser {
  private cookies: Cookie[] = [];

  readonly origin: string;
  private readonly remoteAddress: string | undefined;
  /** Sent with every request, as a proxy in front of the server would add them. */
  private readonly headers: Record<string, string>;

  constructor(
    private app: FastifyInstance,
    opts: { origin?: string; remoteAddress?: string; headers?: Record<string, string> } = {},
  ) {
    this.origin = opts.origin ?? 'http://pim.test';
    this.remoteAddress = opts.remoteAddress;
    this.headers = opts.headers ?? {};
  }

  private readonly routes: Array<[string, FastifyInstance]> = [];

  /** Sends the following requests to another server (of the same address, e.g. behind a load balancer). */
  useServer(app: FastifyInstance): void {
    this.app = app;
  }

  /** Sends requests for paths under this prefix to another server, as a reverse proxy would. */
  route(prefix: string, app: FastifyInstance): void {
    this.routes.push([prefix, app]);
  }

  async open(url: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
    const target = new URL(url, this.origin);
    if (target.origin !== this.origin) throw new Error(`The test browser only visits ${this.origin}, not ${target.href}`);
    const cookie = this.cookieHeader(target.pathname);
    const server = this.routes.find(([prefix]) => target.pathname.startsWith(prefix))?.[1] ?? this.app;
    const res = await server.inject({
      method: (form ? 'POST' : 'GET') as HTTPMethods,
      url: target.pathname + target.search,
      headers: {
        host: target.host,
        accept: 'text/html',
        ...(cookie && { cookie }),
        ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
        ...this.headers,
        ...headers,
      },
      ...(form && { payload: new URLSearchParams(form).toString() }),
      ...(this.remoteAddress && { remoteAddress: this.remoteAddress }),
    });
    for (const line of [res.headers['set-cookie'] ?? []].flat()) this.store(line, target.pathname);
    const location = res.headers.location === undefined ? undefined : new URL(String(res.headers.location), target).href;
    return { url: target.href, status: res.statusCode, headers: res.headers, body: res.body, location };
  }

  /** Opens a URL and follows redirects while they stay on our origin; returns the last page. */
  async visit(url: string, form?: Record<string, string>): Promise<Page> {
    let page = await this.open(url, form);
    for (let hops = 0; page.location && new URL(page.location).origin === this.origin && hops < 10; hops++) {
      if (new URL(page.location).pathname.startsWith('/pim/')) break;
      page = await this.open(page.location);
    }
    return page;
  }

  private cookieHeader(path: string): string {
    return this.cookies
      .filter((c) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(line: string, requestPath: string): void {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    const attr = (key: string) => attrs.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    const path = attr('path') ?? requestPath.replace(/\/[^/]*$/, '/');
    const expires = attr('expires');
    const maxAge = attr('max-age');
    const gone = (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
    this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
    if (!gone) this.cookies.push({ name, value, path });
  }
}

/** The form action of the sign-in page. */
export function formAction(html: string): string {
  const match = /<form[^>]*action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`No sign-in form on the page:\n${html.slice(0, 500)}`);
  return match[1]!.replace(/&#38;/g, '&');
}

/** Starts at `google/login` and follows the provider to its sign-in form. */
export async function openSignInForm(browser: TestBrowser, query: Record<string, string> = {}, apiBase = '/api/'): Promise<Page> {
  const qs = new URLSearchParams(query).toString();
  const login = await browser.open(`${apiBase}google/login${qs ? `?${qs}` : ''}`);
  if (login.status !== 302 || !login.location) throw new Error(`google/login answered ${login.status}: ${login.body}`);
  return browser.visit(login.location);
}

/** Submits the form and follows the redirects up to the callback's answer. */
export function submitSignIn(browser: TestBrowser, form: Page, email: string, password: string): Promise<Page> {
  return browser.visit(formAction(form.body), { email, password });
}

/** The whole sign-in: the app URL the browser lands on, with its gsid. */
export async function signIn(
  app: FastifyInstance,
  who: { email: string; password: string },
  query: Record<string, string> = { returnURL: 'http://pim.test/pim/' },
): Promise<{ landing: URL; gsid: string }> {
  const browser = new TestBrowser(app);
  const done = await submitSignIn(browser, await openSignInForm(browser, query), who.email, who.password);
  if (done.status !== 302 || !done.location) throw new Error(`Sign-in ended with ${done.status} at ${done.url}: ${done.body.slice(0, 800)}`);
  const landing = new URL(done.location);
  return { landing, gsid: landing.searchParams.get('gsid') ?? '' };
}

let counter = 0;

/** A local account with a known password, made through the services the CLI uses. */
export async function localUser(app: FastifyInstance, opts: { admin?: boolean; password?: string } = {}) {
  counter += 1;
  const email = `signin-${counter}-${Date.now()}@example.org`;
  const password = opts.password ?? `password-${counter}`;
  const user = await app.services.users.createLocal({
    email,
    name: `Signer ${counter}`,
    passwordHash: await hashPassword(password),
    admin: opts.admin ?? false,
  });
  return { id: user.id, email, password };
}
