import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { createAccessToken, listAccessTokens, MAX_EXPIRY_DAYS, MAX_TOKEN_NAME_LENGTH, revokeAccessToken, TOKEN_SCOPES } from '../../accounts/access-tokens.ts';
import { errorResponses, IdParams, Nullable, Ok } from '../../schemas/common.ts';

const Scope = Type.Union(TOKEN_SCOPES.map((s) => Type.Literal(s)));

export const AccessTokenOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  scopes: Type.Array(Scope),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Nullable(Type.String({ format: 'date-time' })),
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
});

const CreatedAccessToken = Type.Object({
  ...AccessTokenOut.properties,
  token: Type.String({ description: 'The token itself (`chime_pat_…`): shown in this answer only.' }),
});

export const NewAccessTokenBody = Type.Object({
  name: Type.String({ maxLength: MAX_TOKEN_NAME_LENGTH * 4 }),
  scopes: Type.Array(Scope, { minItems: 1, maxItems: TOKEN_SCOPES.length, description: '["reminders:read"] or ["reminders:read", "reminders:write"]' }),
  expires_in_days: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_EXPIRY_DAYS, description: 'Absent or null: the token never expires.' }))),
});

/**
 * Personal access tokens of the signed-in account (docs/api.md). Only a session manages them: a
 * token cannot make or see tokens (these routes declare no token scope).
 */
const tokens: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/api/tokens', { schema: { response: { 200: Type.Array(AccessTokenOut), ...errorResponses } } }, async (request) =>
    listAccessTokens(app.db, request.auth!.accountId),
  );

  app.post('/api/tokens', { schema: { body: NewAccessTokenBody, response: { 201: CreatedAccessToken, ...errorResponses } } }, async (request, reply) => {
    return reply.status(201).send(await createAccessToken(app.db, request.auth!.accountId, request.body));
  });

  app.delete('/api/tokens/:id', { schema: { params: IdParams, response: { 200: Ok, ...errorResponses } } }, async (request) => {
    await revokeAccessToken(app.db, request.auth!.accountId, request.params.id);
    return { ok: true };
  });
};

export default tokens;
