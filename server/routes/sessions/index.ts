import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { endOtherSessions, endSession, listSessions } from '../../accounts/sessions.ts';
import { errorResponses, IdParams, Nullable, Ok } from '../../schemas/common.ts';

export const SessionOut = Type.Object({
  id: Type.String(),
  browser: Nullable(Type.String({ description: 'From the User-Agent: "Firefox 132"; null when not recognised.' })),
  os: Nullable(Type.String({ description: '"Windows", "macOS", "iOS 18", "Android 15"…; null when not recognised.' })),
  device: Type.Union([Type.Literal('desktop'), Type.Literal('mobile'), Type.Literal('tablet'), Type.Literal('unknown')]),
  network: Nullable(Type.String({ description: 'Where it was last seen: an IPv4 address or an IPv6 /64.' })),
  created_at: Type.String({ format: 'date-time' }),
  last_seen_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
  current: Type.Boolean({ description: 'The session making this request.' }),
});

const SignedOut = Type.Object({ signed_out: Type.Integer({ minimum: 0 }) });

/**
 * The signed-in sessions of the account (docs/security.md "Sessions"): list, sign one out, sign
 * out everywhere else. Only a session uses them: personal access tokens are refused (no token
 * scope), and cookie requests pass the CSRF check like every other unsafe call.
 */
const sessions: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/api/sessions', { schema: { response: { 200: Type.Array(SessionOut), ...errorResponses } } }, async (request) =>
    listSessions(app.db, request.auth!.accountId, request.auth!.sessionId),
  );

  app.delete('/api/sessions/:id', { schema: { params: IdParams, response: { 200: Ok, ...errorResponses } } }, async (request, reply) => {
    const { accountId, sessionId } = request.auth!;
    await endSession(app.db, accountId, request.params.id);
    // Signing this browser's own session out from the list is signing out.
    if (request.params.id === sessionId && request.auth!.via === 'cookie') app.clearSessionCookie(reply);
    return { ok: true };
  });

  app.post('/api/sessions/sign-out-others', { schema: { response: { 200: SignedOut, ...errorResponses } } }, async (request) => {
    return { signed_out: await endOtherSessions(app.db, request.auth!.accountId, request.auth!.sessionId!) };
  });
};

export default sessions;
