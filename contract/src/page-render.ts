import { z } from 'zod';
import type { AppConfig } from './app-config.js';

/**
 * A screen rendered on the server: the page of its address comes with the screen drawn in it, for
 * the signed-in user, so the browser paints it before the app's code has arrived and run; the app
 * then takes over the markup as it is (React's hydration) rather than drawing it again.
 *
 * The server can render for a user only if the page's request says who they are. The session token
 * lives in localStorage (spec part 1 §2), which a page request does not carry, so the web app keeps
 * a copy of the token and of the two preferences a screen renders with in cookies of the app's
 * pages (path /pim, SameSite=Lax). They are read for nothing else: the API takes only the
 * Authorization header, and a page's render only reads.
 */
export const PAGE_COOKIE = {
  /** The session token, as localStorage holds it under `token`. */
  token: 'pim_token',
  /** The language the user chose in the app ('en', 'nl'); without it, the browser's (accept-language). */
  language: 'pim_language',
  /** 'true' when 'Own data only' is on. */
  ownDataOnly: 'pim_own_data',
} as const;

/** The path the page cookies are sent with: the app's pages, not its API, files or images. */
export const PAGE_COOKIE_PATH = '/pim';

/** The id of the JSON data element of a rendered page: what it was rendered with and the data it shows. */
export const SERVER_RENDER_ELEMENT_ID = 'pim-server-render';

/**
 * What a rendered page says of its render: the browser's state it assumed (the app takes the markup
 * over only where its own state is the same, and draws the screen anew otherwise) and the answers
 * of the calls it was drawn from (TanStack Query's dehydrated cache), so the app starts with them
 * instead of asking again.
 */
export const serverRenderStateSchema = z.object({
  /** The address drawn: path and query, as the page was asked for. */
  url: z.string(),
  /** The session token it was drawn for: the app compares its own. */
  token: z.string(),
  language: z.string(),
  onlyOwnData: z.boolean(),
  queries: z.unknown(),
});
export type ServerRenderState = z.infer<typeof serverRenderStateSchema>;

/** What the server gives the web app's render (web/src/server-render.tsx) for one page. */
export interface ServerRenderRequest {
  /** The page's address: path (under /pim) and query. */
  url: string;
  config: AppConfig;
  token: string;
  language: string;
  onlyOwnData: boolean;
  /** A namespace's texts in a language, undefined where the build has none. */
  texts: (language: string, namespace: string) => Promise<Record<string, unknown> | undefined>;
  /** The API, answered in the server's own process: the calls the screen opens with go through it. */
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** How long the calls may take before the render gives up (null: the page goes without the screen, and the next render does not wait on this one). */
  timeLimitMs: number;
}

export interface ServerRender {
  /** The markup of the app's root element. */
  html: string;
  state: ServerRenderState;
}

/** The web app's server entry, as the server loads it from the build. */
export interface ServerRenderModule {
  /** Whether the screen at `pathname` (a full path, /pim/...) is rendered on the server. */
  rendersOnServer(pathname: string): boolean;
  /** The screen drawn for the request's user; null when it cannot be (a session the server refused, a call that failed). */
  renderScreen(request: ServerRenderRequest): Promise<ServerRender | null>;
}
