import { notifications } from '@mantine/notifications';
import { errorResponseSchema, type AppConfig, type ErrorResponse, type ServerRenderRequest } from '@pim/contract';
import type { z } from 'zod';
import { i18n } from '../i18n/translations';
import { DEFAULT_APP_CONFIG } from '../session/app-config';
import { getToken } from '../session/token-store';

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON, except FormData which goes as multipart, and a string with `contentType`, sent as it is. */
  body?: unknown;
  /** The type of a body already written as text (e.g. the NDJSON of a multi-search). */
  contentType?: string;
  /** Appended as query parameters; null and undefined values are left out. */
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** No toast: the caller handles failures itself (e.g. the role check, which only logs). */
  quiet?: boolean;
  /** Overrides the stored token, e.g. when logging out after the store was already cleared. */
  token?: string | null;
}

/** A non-OK answer. `response` is the parsed `{error, message, details}` when the body has that shape. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    readonly response: ErrorResponse | undefined,
  ) {
    super(response?.message ?? (bodyText || `HTTP ${status}`));
    this.name = 'ApiError';
  }
}

let config: AppConfig = DEFAULT_APP_CONFIG;
/** The server's own answers, where the app renders a page on the server (web/src/server-render.tsx); else the browser's fetch. */
let fetchOnServer: ServerRenderRequest['fetch'] | undefined;

const sessionRejectedListeners = new Set<() => void>();

/**
 * Told when the server answers 401 to a call that carried the stored session token: the session
 * ended on the server (signed out elsewhere, expired, the user disabled), so the app signs out.
 */
export function onSessionRejected(listener: () => void): () => void {
  sessionRejectedListeners.add(listener);
  return () => sessionRejectedListeners.delete(listener);
}

/** Called once at start with the runtime configuration read from app-config.json; on the server, for each page it renders, with the server's fetch. */
export function configureApiClient(next: AppConfig, serverFetch?: ServerRenderRequest['fetch']): void {
  config = next;
  fetchOnServer = serverFetch;
}

export function apiUrl(path: string, query?: Record<string, QueryValue>): string {
  const base = config.apiBase.endsWith('/') ? config.apiBase : `${config.apiBase}/`;
  const url = base + path.replace(/^\//, '');
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

function toastError(message: string, title?: string): void {
  notifications.show({ color: 'red', title, message });
}

function parseErrorBody(bodyText: string): ErrorResponse | undefined {
  try {
    return errorResponseSchema.safeParse(JSON.parse(bodyText)).data;
  } catch {
    return undefined;
  }
}

function toastFailure(status: number, bodyText: string, parsed: ErrorResponse | undefined, token: string | null): void {
  // The server answers `{error, message, details}`; its message is the readable part of the body.
  // Anything else (a proxy's HTML page, plain text) is shown as it is.
  const text = parsed?.message ?? bodyText;
  // A signed-in caller refused for lack of a role or permission is not told to log in: the
  // server's message says what is missing. 401, and a 403 without a session, ask for a login.
  if (status === 403 && token !== null) {
    toastError(text, i18n.t('common:errors.notAllowed'));
    return;
  }
  const needsLogin = status === 401 || status === 403;
  toastError(i18n.t('common:errors.unexpectedResponse', { text }), needsLogin ? i18n.t('common:errors.needLogin') : undefined);
}

async function send(path: string, request: ApiRequest, token: string | null): Promise<Response> {
  const headers = new Headers({ Accept: 'application/json' });
  const auth = authorization(token);
  if (auth) headers.set('Authorization', auth);
  let body: BodyInit | undefined;
  if (request.body instanceof FormData) {
    body = request.body;
  } else if (request.contentType !== undefined && typeof request.body === 'string') {
    headers.set('Content-Type', request.contentType);
    body = request.body;
  } else if (request.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(request.body);
  }
  try {
    return await (fetchOnServer ?? fetch)(apiUrl(path, request.query), {
      method: request.method ?? 'GET',
      headers,
      body,
      signal: request.signal,
    });
  } catch (error) {
    // An aborted request is the caller's own decision (a query went stale), not a failure to show.
    if (!request.signal?.aborted && !request.quiet) toastError(error instanceof Error ? error.message : String(error));
    throw error;
  }
}

function authorization(token: string | null): string | null {
  return token ? `${config.providerName} ${token}` : null;
}

/** A non-OK answer: the toast, the session's end on a refused stored token, and the error to throw. */
function failure(status: number, bodyText: string, request: ApiRequest, token: string | null): ApiError {
  const parsed = parseErrorBody(bodyText);
  if (!request.quiet) toastFailure(status, bodyText, parsed, token);
  if (status === 401 && token !== null && token === getToken()) {
    for (const listener of sessionRejectedListeners) listener();
  }
  return new ApiError(status, bodyText, parsed);
}

async function failIfNotOk(response: Response, request: ApiRequest, token: string | null): Promise<void> {
  if (response.ok) return;
  const bodyText = await response.text().catch(() => '');
  throw failure(response.status, bodyText, request, token);
}

function parseAnswer<S extends z.ZodType>(status: number, json: unknown, request: ApiRequest & { schema: S }): z.output<S> {
  const parsed = request.schema.safeParse(json);
  if (!parsed.success) {
    // The server broke the contract: say so rather than render half-understood data.
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    if (!request.quiet) toastError(i18n.t('common:errors.unexpectedResponse', { text: detail }));
    throw new ApiError(status, detail, undefined);
  }
  return parsed.data;
}

/**
 * The one way the web app talks to the server: adds the Authorization header, reports failures
 * in a toast and checks every answer against the contract's schema.
 */
export async function apiFetch<S extends z.ZodType>(
  path: string,
  request: ApiRequest & { schema: S },
): Promise<z.output<S>>;
export async function apiFetch(path: string, request?: ApiRequest): Promise<void>;
export async function apiFetch(
  path: string,
  request: ApiRequest & { schema?: z.ZodType } = {},
): Promise<unknown> {
  const token = request.token === undefined ? getToken() : request.token;
  const response = await send(path, request, token);
  await failIfNotOk(response, request, token);
  if (!request.schema) return undefined;
  const json: unknown = response.status === 204 ? null : await response.json();
  return parseAnswer(response.status, json, { ...request, schema: request.schema });
}

export interface UploadRequest<S extends z.ZodType> {
  /** Sent as multipart; the caller appends the text parts before the file. */
  body: FormData;
  /** Appended as query parameters, as in apiFetch. */
  query?: Record<string, QueryValue>;
  schema: S;
  /** Told the fraction (0 to 1) of the body sent so far. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** No toast: the caller shows failures itself (e.g. on the file's row). */
  quiet?: boolean;
}

/**
 * A POST of a large file with its progress, which fetch cannot report: XMLHttpRequest with the same
 * base, Authorization header, failure toast and answer check as apiFetch.
 */
export function apiUpload<S extends z.ZodType>(path: string, upload: UploadRequest<S>): Promise<z.output<S>> {
  const token = getToken();
  const request: ApiRequest & { schema: S } = { method: 'POST', schema: upload.schema, signal: upload.signal, quiet: upload.quiet };
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path, upload.query));
    xhr.setRequestHeader('Accept', 'application/json');
    const auth = authorization(token);
    if (auth) xhr.setRequestHeader('Authorization', auth);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) upload.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(failure(xhr.status, xhr.responseText, request, token));
        return;
      }
      try {
        const json: unknown = xhr.status === 204 || xhr.responseText === '' ? null : JSON.parse(xhr.responseText);
        resolve(parseAnswer(xhr.status, json, request));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    xhr.onerror = () => {
      const error = new Error(i18n.t('common:errors.uploadFailed'));
      if (!upload.quiet) toastError(error.message);
      reject(error);
    };
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    upload.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(upload.body);
  });
}
