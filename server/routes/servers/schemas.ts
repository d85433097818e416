import { Type } from '@sinclair/typebox';
import { Nullable } from '../../schemas/common.ts';
import { AUDIT_KINDS } from '../../servers/audit.ts';
import { ReminderOut } from '../reminders/schemas.ts';

// Ids are checked by the service: an id that is no server of the account's is 404 SERVER_NOT_FOUND, whatever its shape.
export const GuildParams = Type.Object({ guildId: Type.String({ minLength: 1, maxLength: 32 }) });
export const ServerReminderParams = Type.Object({ guildId: Type.String({ minLength: 1, maxLength: 32 }), id: Type.String({ minLength: 1, maxLength: 64 }) });

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
    /** next_cursor of the previous page. */
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const ServerOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  icon: Nullable(Type.String()),
  role: Type.Union([Type.Literal('manager'), Type.Literal('member')]),
  /** Reminders, of anyone, with a channel destination in this server. */
  reminder_count: Type.Integer(),
});

export const CreatedBy = Type.Object({
  /** Null when the creator's account no longer has a Discord identity. */
  discord_user_id: Nullable(Type.String()),
  username: Nullable(Type.String()),
  still_member: Type.Boolean(),
});

/** A reminder as a server's managers see it: only this server's channel destinations, and who made it. */
export const ServerReminderOut = Type.Object({ ...ReminderOut.properties, created_by: CreatedBy });

export const ServerReminderPage = Type.Object({
  reminders: Type.Array(ServerReminderOut),
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_cursor: Nullable(Type.String()),
});

export const RemovedOut = Type.Object({
  ok: Type.Boolean(),
  /** The reminder had no other destination: it no longer fires (its creator is told why). */
  ended: Type.Boolean(),
});

const Snowflake = Type.String({ pattern: '^[0-9]{15,25}$' });

export const ServerSettingsBody = Type.Object(
  {
    /** Holders of this role manage the server in Chime, besides the owner, Administrator and Manage Server. */
    manager_role_id: Nullable(Snowflake),
    /** The zone of reminders made in this server by members whose account has none. */
    default_timezone: Nullable(Type.String({ maxLength: 100 })),
    who_can_create: Type.Union([Type.Literal('everyone'), Type.Literal('role'), Type.Literal('managers')]),
    /** With who_can_create "role": the role whose holders (and managers) may create. */
    creator_role_id: Nullable(Snowflake),
    role_mentions: Type.Union([Type.Literal('everyone'), Type.Literal('managers'), Type.Literal('nobody')]),
    everyone_mention: Type.Boolean(),
    /** null: every channel the creator and the bot can post in. */
    allowed_channel_ids: Nullable(Type.Array(Snowflake, { maxItems: 100 })),
    /** Reminders one member may have in this server; null: no limit (managers are not limited). */
    max_reminders: Nullable(Type.Integer({ minimum: 0, maximum: 10_000 })),
    /** What happens to a reminder whose creator left the server. */
    former_members: Type.Union([Type.Literal('keep'), Type.Literal('pause')]),
    /** Channel reminders may offer a "Remind me too" button (default true); left out of a save: unchanged. */
    allow_remind_me_too: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ServerSettingsOut = Type.Composite([Type.Omit(ServerSettingsBody, ['allow_remind_me_too']), Type.Object({ allow_remind_me_too: Type.Boolean() })], { additionalProperties: false });

export const AuditEntryOut = Type.Object({
  at: Type.String(),
  actor: Type.Object({ discord_user_id: Nullable(Type.String()), username: Nullable(Type.String()) }),
  action: Type.Union([
    Type.Literal('create'),
    Type.Literal('edit'),
    Type.Literal('pause'),
    Type.Literal('resume'),
    Type.Literal('delete'),
    Type.Literal('take_over'),
    Type.Literal('settings'),
  ]),
  reminder_id: Nullable(Type.String()),
  /** What changed, in English. */
  summary: Type.String(),
  /**
   * What changed, as data for a reader's own language: `kind` and its `params` (the reminder's
   * quoted message, channel names, a creator's name, a comma-separated list of settings).
   * Null on entries written before it existed (docs/servers.md "Audit log").
   */
  detail: Nullable(
    Type.Object({
      kind: Type.Union(AUDIT_KINDS.map((kind) => Type.Literal(kind))),
      params: Type.Record(Type.String(), Type.String()),
    }),
  ),
});

export const AuditPage = Type.Object({
  entries: Type.Array(AuditEntryOut),
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_cursor: Nullable(Type.String()),
});

/** A page of the account's own reminders in a server: whole, as GET /api/reminders/:id answers them. */
export const MyServerReminderPage = Type.Object({
  reminders: Type.Array(ReminderOut),
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_cursor: Nullable(Type.String()),
});

const Named = Type.Object({ id: Type.String(), name: Type.String() });

/**
 * The server's rules as any member reads them, for the account asking (docs/servers.md "Settings
 * and rules"): what they may do when making a reminder there. The managers' own settings
 * (manager_role_id, former_members) are not in it.
 */
export const ServerRulesOut = Type.Object({
  role: Type.Union([Type.Literal('manager'), Type.Literal('member')]),
  /** false for managers: they are held to none of these rules but allow_remind_me_too. */
  bound: Type.Boolean(),
  who_can_create: Type.Union([Type.Literal('everyone'), Type.Literal('role'), Type.Literal('managers')]),
  /** With who_can_create "role": the role whose holders may create. */
  creator_role: Nullable(Named),
  /** Whether this account may make a reminder in this server. */
  may_create: Type.Boolean(),
  role_mentions: Type.Union([Type.Literal('everyone'), Type.Literal('managers'), Type.Literal('nobody')]),
  may_mention_roles: Type.Boolean(),
  everyone_mention: Type.Boolean(),
  /** By the server's rules; Discord's Mention Everyone permission is needed as well. */
  may_mention_everyone: Type.Boolean(),
  /** null: any channel the creator and the bot can post in. */
  allowed_channels: Nullable(Type.Array(Named)),
  max_reminders: Nullable(Type.Integer()),
  /** This account's reminders with a channel in this server (what max_reminders counts). */
  my_reminder_count: Type.Integer(),
  default_timezone: Nullable(Type.String()),
  allow_remind_me_too: Type.Boolean(),
});
