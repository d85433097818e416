import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { languageFromHeader, type Language } from '../../lib/language.ts';
import type { ServerReminderView } from '../../servers/service.ts';
import {
  listMyServerReminderPage,
  listServerReminderPage,
  listServers,
  pauseServerReminder,
  removeServerReminder,
  resumeServerReminder,
  takeOverServerReminder,
} from '../../servers/service.ts';
import { getServerRules, getServerSettings, putServerSettings } from '../../servers/settings.ts';
import { serverAuditPage } from '../../servers/audit.ts';
import { errorResponses } from '../../schemas/common.ts';
import { presentReminder } from '../reminders/present.ts';
import { AuditPage, GuildParams, MyServerReminderPage, PageQuery, RemovedOut, ServerOut, ServerReminderOut, ServerReminderPage, ServerReminderParams, ServerRulesOut, ServerSettingsBody, ServerSettingsOut } from './schemas.ts';

function presentServerReminder(view: ServerReminderView, language: Language): Static<typeof ServerReminderOut> {
  return { ...presentReminder(view.reminder, language), created_by: view.created_by };
}

/**
 * The servers API (docs/servers.md): each handler is one call of the servers service. No route
 * declares a token scope, so personal access tokens are refused (403 TOKEN_NOT_ALLOWED): managing a
 * Discord server stays a signed-in person's act.
 */
const servers: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const lang = (request: { headers: Record<string, string | string[] | undefined> }) => languageFromHeader(request.headers['accept-language']);
  const one = { response: { 200: ServerReminderOut, ...errorResponses } };

  app.get('/api/servers', { schema: { response: { 200: Type.Array(ServerOut), ...errorResponses } } }, async (request) => {
    return listServers(app, request.auth!.accountId);
  });

  app.get('/api/servers/:guildId/reminders', { schema: { params: GuildParams, querystring: PageQuery, response: { 200: ServerReminderPage, ...errorResponses } } }, async (request) => {
    const { limit, before } = request.query;
    const page = await listServerReminderPage(app, request.auth!.accountId, request.params.guildId, { limit: limit === undefined ? undefined : Number(limit), before });
    const language = lang(request);
    return { reminders: page.reminders.map((r) => presentServerReminder(r, language)), next_cursor: page.next_cursor };
  });

  app.get('/api/servers/:guildId/my-reminders', { schema: { params: GuildParams, querystring: PageQuery, response: { 200: MyServerReminderPage, ...errorResponses } } }, async (request) => {
    const { limit, before } = request.query;
    const page = await listMyServerReminderPage(app, request.auth!.accountId, request.params.guildId, { limit: limit === undefined ? undefined : Number(limit), before });
    const language = lang(request);
    return { reminders: page.reminders.map((r) => presentReminder(r, language)), next_cursor: page.next_cursor };
  });

  app.get('/api/servers/:guildId/rules', { schema: { params: GuildParams, response: { 200: ServerRulesOut, ...errorResponses } } }, async (request) => {
    return getServerRules(app, request.auth!.accountId, request.params.guildId);
  });

  app.post('/api/servers/:guildId/reminders/:id/pause', { schema: { params: ServerReminderParams, ...one } }, async (request) => {
    return presentServerReminder(await pauseServerReminder(app, request.auth!.accountId, request.params.guildId, request.params.id), lang(request));
  });

  app.post('/api/servers/:guildId/reminders/:id/resume', { schema: { params: ServerReminderParams, ...one } }, async (request) => {
    return presentServerReminder(await resumeServerReminder(app, request.auth!.accountId, request.params.guildId, request.params.id), lang(request));
  });

  app.post('/api/servers/:guildId/reminders/:id/take-over', { schema: { params: ServerReminderParams, ...one } }, async (request) => {
    return presentServerReminder(await takeOverServerReminder(app, request.auth!.accountId, request.params.guildId, request.params.id), lang(request));
  });

  app.delete('/api/servers/:guildId/reminders/:id', { schema: { params: ServerReminderParams, response: { 200: RemovedOut, ...errorResponses } } }, async (request) => {
    const { ended } = await removeServerReminder(app, request.auth!.accountId, request.params.guildId, request.params.id);
    return { ok: true, ended };
  });

  app.get('/api/servers/:guildId/settings', { schema: { params: GuildParams, response: { 200: ServerSettingsOut, ...errorResponses } } }, async (request) => {
    return getServerSettings(app, request.auth!.accountId, request.params.guildId);
  });

  app.put('/api/servers/:guildId/settings', { schema: { params: GuildParams, body: ServerSettingsBody, response: { 200: ServerSettingsOut, ...errorResponses } } }, async (request) => {
    return putServerSettings(app, request.auth!.accountId, request.params.guildId, request.body);
  });

  app.get('/api/servers/:guildId/audit', { schema: { params: GuildParams, querystring: PageQuery, response: { 200: AuditPage, ...errorResponses } } }, async (request) => {
    const { limit, before } = request.query;
    return serverAuditPage(app, request.auth!.accountId, request.params.guildId, { limit: limit === undefined ? undefined : Number(limit), before });
  });
};

export default servers;
