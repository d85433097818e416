import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '@/lib/api-client';
import { type Channel, type Guild, listArchivedThreads, listChannels, listGuilds, listRoles, type Role } from '@/lib/api/reminders';
import { mentionableRoles, POSTABLE_CHANNEL_TYPES, withArchivedThreads } from '../api/destinations';
import { useBotInvite } from './use-bot-invite';
import { useLatestRequest } from './use-latest-request';

/** The server picker's steps: server, text channel, role to mention. */
export type PickerMode = 'guild' | 'channel' | 'role';

/** This text in a channel-load failure means the bot must be invited first (docs/dashboard.md "Destinations"). */
const BOT_NOT_IN_GUILD = 'Bot is not a member of this guild';

function isBotMissing(err: unknown): boolean {
  if (err instanceof ApiError && err.code === 'DISCORD_BOT_NOT_IN_GUILD') return true;
  return err instanceof Error && err.message.includes(BOT_NOT_IN_GUILD);
}

/**
 * The server picker's state: loads the servers each time it opens, then the channels and roles of
 * the chosen server, and holds the choice of each step. Everything resets when it closes.
 */
export function useServerPicker(open: boolean, accountId: string) {
  const { t } = useTranslation('destinations');
  const [mode, setMode] = useState<PickerMode>('guild');
  const [guilds, setGuilds] = useState<Guild[] | null>(null);
  const [channels, setChannels] = useState<Channel[] | null>(null);
  const [roles, setRoles] = useState<Role[] | null>(null);
  const [guild, setGuild] = useState<Guild | null>(null);
  const [channel, setChannel] = useState<Channel | null>(null);
  const [role, setRole] = useState<Role | null>(null);
  const [botMissing, setBotMissing] = useState(false);
  /** Channels whose archived threads were asked for, each with the cursor of its next page (null: all shown). */
  const [archivedOf, setArchivedOf] = useState<ReadonlyMap<string, string | null>>(new Map());
  const { loading, error, setError, run, cancel } = useLatestRequest();
  const { openInvite, clearInvite } = useBotInvite(guild, botMissing, setError);

  /** Shows a failed load: the server's message, else the step's own. */
  const failWith = useCallback((fallback: string) => (err: unknown) => setError(errorMessage(err, fallback) || fallback), [setError]);

  const reset = useCallback(() => {
    cancel();
    setMode('guild');
    setGuilds(null);
    setChannels(null);
    setRoles(null);
    setGuild(null);
    setChannel(null);
    setRole(null);
    setBotMissing(false);
    setArchivedOf(new Map());
    clearInvite();
  }, [cancel, clearInvite]);

  const loadGuilds = useCallback(() => run(() => listGuilds(accountId), setGuilds, failWith(t('picker.errors.guilds'))), [accountId, t, run, failWith]);

  useEffect(() => {
    if (open) void loadGuilds();
    else reset();
  }, [open, loadGuilds, reset]);

  async function loadChannels(target: Guild) {
    setBotMissing(false);
    await run(
      () => listChannels(accountId, target.id),
      (list) => {
        setChannels(list.filter((c) => POSTABLE_CHANNEL_TYPES.includes(c.type)));
        setMode('channel');
      },
      (err) => {
        if (isBotMissing(err)) setBotMissing(true);
        else failWith(t('picker.errors.channels'))(err);
      },
    );
  }

  /** Adds a page of a channel's archived threads after its active ones (and the pages shown already). */
  async function loadArchived(parent: Channel) {
    const cursor = archivedOf.get(parent.id);
    if (!guild || cursor === null) return;
    await run(
      () => listArchivedThreads(accountId, guild.id, parent.id, cursor),
      (page) => {
        setArchivedOf((seen) => new Map(seen).set(parent.id, page.next_cursor));
        setChannels((current) => (current ? withArchivedThreads(current, parent.id, page.threads) : current));
      },
      failWith(t('picker.errors.archived')),
    );
  }

  async function loadRoles() {
    if (!guild) return;
    setMode('role');
    await run(() => listRoles(accountId, guild.id), (list) => setRoles(mentionableRoles(list, guild.id)), failWith(t('picker.errors.roles')));
  }

  function chooseGuild(g: Guild) {
    setGuild(g);
    setError(null);
    clearInvite();
    setBotMissing(g.bot_present === false);
  }

  /** After inviting the bot: reload the list and try the chosen server again. */
  async function recheck() {
    const current = guild;
    const list = await loadGuilds();
    const fresh = current && list?.find((g) => g.id === current.id);
    if (!fresh) return;
    setGuild(fresh);
    if (fresh.bot_present === false) setBotMissing(true);
    else await loadChannels(fresh);
  }

  function activateGuild(g: Guild) {
    chooseGuild(g);
    if (g.bot_present !== false) void loadChannels(g);
  }

  function next() {
    if (guild && !botMissing) void loadChannels(guild);
  }

  function back() {
    cancel();
    if (mode === 'role') {
      setRole(null);
      setRoles(null);
      setMode('channel');
    } else if (mode === 'channel') {
      setChannel(null);
      setRole(null);
      setChannels(null);
      setRoles(null);
      setArchivedOf(new Map());
      setMode('guild');
    }
  }

  return {
    mode, guilds, channels, roles, guild, channel, role, loading, error, botMissing, archivedOf,
    chooseGuild, activateGuild, setChannel, setRole, loadRoles, loadArchived, recheck, next, back, openInvite,
  };
}
