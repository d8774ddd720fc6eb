import { loginQuerySchema, signInCallbackQuerySchema } from '@pim/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { problemPage } from '../../platform/auth/embedded-provider/pages.js';
import { AppError } from '../../platform/errors.js';
import { errorResponses } from '../../platform/http/openapi.js';
import type { SignInService } from './service.js';

export interface SignInRoutesOptions {
  signIn: SignInService;
}

/** Both routes work on the address the browser reached us at (`req.publicUrl`): the sign-in stays on it. */
export const signInRoutes: FastifyPluginAsyncZod<SignInRoutesOptions> = async (app, { signIn }) => {
  const tags = ['Session'];

  app.get(
    '/google/login',
    {
      schema: {
        tags,
        summary: 'Start signing in: redirects (302) to the sign-in provider',
        description:
          'After sign-in the browser returns to returnURL (the origin this request reached us at only; else /pim/ there) with gsid=<session token>, redirect (app paths only) and loginCheck as given.',
        querystring: loginQuerySchema,
        response: errorResponses,
      },
    },
    async (req, reply) => reply.redirect(await signIn.begin(req.query, req.publicUrl), 302),
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
      try {
        return reply.redirect(await signIn.finish(queryOf(req.url)), 302);
      } catch (err) {
        // A person's browser lands here: show a page with the way back rather than JSON.
        if (!(err instanceof AppError) || !wantsHtml(req)) throw err;
        const page = problemPage({ title: 'Sign-in failed', message: err.message, backUrl: `${req.publicUrl}/pim/` });
        return sendPage(reply, err.status, page);
      }
    },
  );
};

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

/** The query of a request's path, as the provider sent it (`?code=…&state=…`), or ''. */
function queryOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at);
}

function wantsHtml(req: FastifyRequest): boolean {
  return /\btext\/html\b/.test(req.headers.accept ?? '');
}
