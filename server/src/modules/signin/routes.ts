import { loginQuerySchema, signInCallbackQuerySchema } from '@pim/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { problemPage } from '../../platform/auth/embedded-provider/pages.js';
import { AppError } from '../../platform/errors.js';
import { errorResponses } from '../../platform/http/openapi.js';
import type { SignInService } from './service.js';

export interface SignInRoutesOptions {
  signIn: SignInService;
  /** The registered redirect URI: `${publicUrl}${apiBase}google/callback`. */
  redirectUri: string;
  appUrl: string;
}

export const signInRoutes: FastifyPluginAsyncZod<SignInRoutesOptions> = async (app, { signIn, redirectUri, appUrl }) => {
  const tags = ['Session'];

  app.get(
    '/google/login',
    {
      schema: {
        tags,
        summary: 'Start signing in: redirects (302) to the sign-in provider',
        description:
          'After sign-in the browser returns to returnURL (our own origin only; else /pim/) with gsid=<session token> and redirect (app paths only).',
        querystring: loginQuerySchema,
        response: errorResponses,
      },
    },
    async (req, reply) => reply.redirect(await signIn.begin(req.query), 302),
  );

  app.get(
    '/google/callback',
    {
      schema: {
        tags,
        summary: "The sign-in provider's redirect back: starts a session, redirects (302) to returnURL with gsid",
        querystring: signInCallbackQuerySchema,
        response: errorResponses,
      },
    },
    async (req, reply) => {
      const callbackUrl = new URL(redirectUri);
      callbackUrl.search = new URL(req.url, callbackUrl).search;
      try {
        return reply.redirect(await signIn.finish(callbackUrl), 302);
      } catch (err) {
        // A person's browser lands here: show a page with the way back rather than JSON.
        if (!(err instanceof AppError) || !wantsHtml(req)) throw err;
        const page = problemPage({ title: 'Sign-in failed', message: err.message, backUrl: appUrl });
        return sendPage(reply, err.status, page);
      }
    },
  );
};

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

function wantsHtml(req: FastifyRequest): boolean {
  return /\btext\/html\b/.test(req.headers.accept ?? '');
}
