import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors, type Interaction, type default as Provider } from 'oidc-provider';
import { z } from 'zod';
import type { LocalSignIn } from './local-sign-in.js';
import { loginPage, problemPage } from './pages.js';

export interface InteractionRoutesOptions {
  provider: Provider;
  signIn: LocalSignIn;
  /** The provider's path on our server, e.g. /oidc. */
  mountPath: string;
  /** The app's start page on a public address. */
  appUrlAt: (publicUrl: string) => string;
}

const params = z.object({ uid: z.string().min(1).max(100) });
// A form is never refused for its shape: a missing field is an empty one, and the page says so.
const credentials = z.object({
  email: z.string().max(320).catch(''),
  password: z.string().max(1024).catch(''),
});

/**
 * The embedded provider's interaction pages: oidc-provider sends the browser here when it
 * needs the user to sign in; the form posts back here, and on success the browser returns to
 * the provider, which finishes the authorization and redirects to PIM's callback.
 */
export const interactionRoutes: FastifyPluginAsyncZod<InteractionRoutesOptions> = async (app, o) => {
  await app.register(formbody);
  const action = (uid: string) => `${o.mountPath}/interaction/${encodeURIComponent(uid)}/login`;

  app.get(`${o.mountPath}/interaction/:uid`, { schema: { hide: true, params } }, async (req, reply) => {
    const interaction = await currentInteraction(o.provider, req, reply, req.params.uid);
    if (!interaction) return expired(reply, o.appUrlAt(req.publicUrl));
    return html(reply, 200, loginPage({ action: action(interaction.uid) }));
  });

  // Reloading the page a failed attempt left in the address bar shows the form again.
  app.get(`${o.mountPath}/interaction/:uid/login`, { schema: { hide: true, params } }, (req, reply) =>
    reply.redirect(`${o.mountPath}/interaction/${encodeURIComponent(req.params.uid)}`, 303),
  );

  app.post(
    `${o.mountPath}/interaction/:uid/login`,
    { schema: { hide: true, params, body: credentials } },
    async (req, reply) => {
      const interaction = await currentInteraction(o.provider, req, reply, req.params.uid);
      if (!interaction) return expired(reply, o.appUrlAt(req.publicUrl));
      const { email, password } = req.body;
      const outcome = await o.signIn.attempt(email, password, req.ip);
      if (!outcome.ok) return html(reply, outcome.status, loginPage({ action: action(interaction.uid), email, message: outcome.message }));
      return reply.redirect(await finishLogin(o.provider, interaction, outcome.accountId), 303);
    },
  );
};

/**
 * The interaction of this browser (its cookie names it) if it is the one in the address and
 * asks for a sign-in. Anything else is a stale page: another tab's, an expired or finished one.
 */
async function currentInteraction(provider: Provider, req: FastifyRequest, reply: FastifyReply, uid: string) {
  try {
    const interaction = await provider.interactionDetails(req.raw, reply.raw);
    return interaction.uid === uid && interaction.prompt.name === 'login' ? interaction : undefined;
  } catch (err) {
    if (err instanceof errors.SessionNotFound) return undefined;
    throw err;
  }
}

/**
 * Records the sign-in as the interaction's result; gives where the browser goes next. A provider
 * session this browser kept from an earlier sign-in (PIM's logout ends PIM's session, not the
 * provider's) is ended first: every sign-in asks for the password anyway (prompt=login), and left in
 * place, a sign-in as another account would make the provider ask to end it and then lose the
 * interaction ("interaction session not found"), so the next person at a shared computer could not
 * sign in.
 */
async function finishLogin(provider: Provider, interaction: Interaction, accountId: string): Promise<string> {
  if (interaction.session) {
    const earlier = interaction.session.cookie ? await provider.Session.find(interaction.session.cookie) : undefined;
    await earlier?.destroy();
    delete interaction.session;
  }
  interaction.result = { login: { accountId } };
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  return interaction.returnTo;
}

function expired(reply: FastifyReply, appUrl: string) {
  const message = 'This sign-in page has expired or was used already. Go back to PIM and log in again.';
  return html(reply, 400, problemPage({ title: 'Sign-in expired', message, backUrl: appUrl }));
}

function html(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
}
