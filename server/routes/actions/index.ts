import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { languageFromHeader } from '../../lib/language.ts';
import { type ActionLinkOutcome, inspectActionLink, redeemActionLink } from '../../reminders/action-links.ts';
import { confirmPage, outcomeText, resultPage } from '../../reminders/action-page.ts';
import { errorResponses } from '../../schemas/common.ts';

const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 400 }) });
const Outcome = Type.Object({
  ok: Type.Boolean(),
  /** On a refusal, as every API error: the English sentence and its code. */
  error: Type.Optional(Type.String()),
  code: Type.Optional(Type.String()),
  outcome: Type.Union(['snoozed', 'done', 'used', 'expired', 'gone', 'invalid'].map((k) => Type.Literal(k))),
  text: Type.String(),
  next_fire_utc: Type.Optional(Type.String()),
});

/** What each outcome answers to an app: a tap that did nothing is not a success for it (ntfy shows it failed). */
const STATUS: Record<ActionLinkOutcome['kind'], 200 | 404 | 409 | 410> = { snoozed: 200, done: 200, used: 409, expired: 410, gone: 404, invalid: 404 };
const CODES: Record<ActionLinkOutcome['kind'], string | null> = {
  snoozed: null,
  done: null,
  used: 'ACTION_LINK_USED',
  expired: 'ACTION_LINK_EXPIRED',
  gone: 'REMINDER_NOT_FOUND',
  invalid: 'ACTION_LINK_INVALID',
};

/**
 * Action links (docs/notifications.md "Action links"): public, the signed token is the
 * credential. GET shows what the link will do (link checkers fetch links: a GET changes
 * nothing); POST does it, answering a page to a browser and JSON to an app (ntfy's http action).
 * This is what makes the links safe in reminder emails too: mail scanners (Outlook Safe Links,
 * Gmail's proxy, antivirus gateways) GET every link of a message before anyone reads it, and
 * only a person pressing the confirmation page's button POSTs.
 */
const actionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/a/:token',
    { schema: { params: TokenParams, response: { 200: Type.String(), 404: Type.String(), 409: Type.String(), 410: Type.String() } } },
    async (request, reply) => {
      const state = await inspectActionLink(app, request.params.token);
      const shown = state.kind === 'invalid' ? { ...state, language: languageFromHeader(request.headers['accept-language']) } : state;
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      // A page, whatever it says: a browser shows it, and the API's error shape is for apps.
      return reply
        .type('text/html; charset=utf-8')
        .send(confirmPage(shown, app.config.publicUrl));
    },
  );

  app.post(
    '/a/:token',
    { schema: { params: TokenParams, response: { ...errorResponses, 200: Outcome, 404: Outcome, 409: Outcome, 410: Outcome } } },
    async (request, reply) => {
      const result = await redeemActionLink(app, request.params.token);
      const outcome = result.kind === 'invalid' ? { ...result, language: languageFromHeader(request.headers['accept-language']) } : result;
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if (/text\/html/.test(request.headers.accept ?? '')) return reply.type('text/html; charset=utf-8').send(resultPage(outcome, app.config.publicUrl) as never);
      reply.status(STATUS[outcome.kind]);
      const code = CODES[outcome.kind];
      const english = outcomeText({ ...outcome, language: 'en' });
      return {
        ok: code === null,
        ...(code ? { error: english, code } : {}),
        outcome: outcome.kind,
        text: outcomeText(outcome),
        ...(outcome.kind === 'snoozed' ? { next_fire_utc: outcome.nextFireUtc } : {}),
      };
    },
  );
};

export default actionRoutes;
