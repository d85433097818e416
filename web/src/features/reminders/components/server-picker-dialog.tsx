import { ArrowLeft, Bot, Check, ExternalLink, Hash, RefreshCw, Shield, TriangleAlert } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ApiError, errorMessage } from '@/lib/api-client';
import { botInviteUrl, type Channel, type Guild, listChannels, listGuilds, listRoles, type Role } from '@/lib/api/reminders';
import { cn } from '@/lib/utils';
import { mentionableRoles, roleColor, TEXT_CHANNEL, type EditableDestination } from '../api/destinations';
import { Spinner } from '@/components/ui/spinner';
import { ChannelOption, EmptyText, GuildAvatar, ListSkeleton, Option, OptionList } from './picker-options';

type Mode = 'guild' | 'channel' | 'role';

/** SPEC section 8: this text in a channel-load failure means the bot must be invited first. */
const BOT_NOT_IN_GUILD = 'Bot is not a member of this guild';

function isBotMissing(err: unknown): boolean {
  if (err instanceof ApiError && err.code === 'DISCORD_BOT_NOT_IN_GUILD') return true;
  return err instanceof Error && err.message.includes(BOT_NOT_IN_GUILD);
}

export interface ServerPickerDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Account id sent in the body (SPEC section 6; the server uses the session anyway). */
  accountId: string;
  onCreate: (destination: EditableDestination) => void;
}

/**
 * Three steps: server, text channel, optional role to mention (SPEC "Server-picker dialog").
 * Guilds load each time the dialog opens; everything resets when it closes.
 */
export function ServerPickerDialog({ open, onOpenChange, accountId, onCreate }: ServerPickerDialogProps) {
  const { t } = useTranslation('destinations');
  const [mode, setMode] = useState<Mode>('guild');
  const [guilds, setGuilds] = useState<Guild[] | null>(null);
  const [channels, setChannels] = useState<Channel[] | null>(null);
  const [roles, setRoles] = useState<Role[] | null>(null);
  const [guild, setGuild] = useState<Guild | null>(null);
  const [channel, setChannel] = useState<Channel | null>(null);
  const [role, setRole] = useState<Role | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [botMissing, setBotMissing] = useState(false);
  const [inviteUrl, setInviteUrl] = useState<string | null>(null);
  // Answers of a previous step or a closed dialog must not land in the current one.
  const generation = useRef(0);

  const reset = useCallback(() => {
    generation.current += 1;
    setMode('guild');
    setGuilds(null);
    setChannels(null);
    setRoles(null);
    setGuild(null);
    setChannel(null);
    setRole(null);
    setLoading(false);
    setError(null);
    setBotMissing(false);
    setInviteUrl(null);
  }, []);

  const loadGuilds = useCallback(async (): Promise<Guild[] | null> => {
    const gen = ++generation.current;
    setLoading(true);
    setError(null);
    try {
      const list = await listGuilds(accountId);
      if (gen !== generation.current) return null;
      setGuilds(list);
      return list;
    } catch (err) {
      if (gen === generation.current) setError(errorMessage(err, t('picker.errors.guilds')) || t('picker.errors.guilds'));
      return null;
    } finally {
      if (gen === generation.current) setLoading(false);
    }
  }, [accountId, t]);

  useEffect(() => {
    if (open) void loadGuilds();
    else reset();
  }, [open, loadGuilds, reset]);

  // Fetch the invite link as soon as it may be needed, so the click opens the tab synchronously
  // (a window.open after an await is treated as a popup and blocked by some browsers).
  useEffect(() => {
    if (!botMissing || !guild) return;
    let live = true;
    botInviteUrl(guild.id)
      .then((r) => live && setInviteUrl(r.url))
      .catch(() => live && setInviteUrl(null));
    return () => {
      live = false;
    };
  }, [botMissing, guild]);

  async function loadChannels(target: Guild) {
    const gen = ++generation.current;
    setLoading(true);
    setError(null);
    setBotMissing(false);
    try {
      const list = await listChannels(accountId, target.id);
      if (gen !== generation.current) return;
      setChannels(list.filter((c) => c.type === TEXT_CHANNEL));
      setMode('channel');
    } catch (err) {
      if (gen !== generation.current) return;
      if (isBotMissing(err)) setBotMissing(true);
      else setError(errorMessage(err, t('picker.errors.channels')) || t('picker.errors.channels'));
    } finally {
      if (gen === generation.current) setLoading(false);
    }
  }

  async function loadRoles() {
    if (!guild) return;
    const gen = ++generation.current;
    setLoading(true);
    setError(null);
    setMode('role');
    try {
      const list = await listRoles(accountId, guild.id);
      if (gen === generation.current) setRoles(mentionableRoles(list, guild.id));
    } catch (err) {
      if (gen === generation.current) setError(errorMessage(err, t('picker.errors.roles')) || t('picker.errors.roles'));
    } finally {
      if (gen === generation.current) setLoading(false);
    }
  }

  function chooseGuild(g: Guild) {
    setGuild(g);
    setError(null);
    setInviteUrl(null);
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
    generation.current += 1;
    setLoading(false);
    setError(null);
    if (mode === 'role') {
      setRole(null);
      setRoles(null);
      setMode('channel');
    } else if (mode === 'channel') {
      setChannel(null);
      setRole(null);
      setChannels(null);
      setRoles(null);
      setMode('guild');
    }
  }

  function openInvite() {
    if (!guild) return;
    if (inviteUrl) {
      window.open(inviteUrl, '_blank', 'noopener,noreferrer');
      return;
    }
    botInviteUrl(guild.id)
      .then((r) => window.open(r.url, '_blank', 'noopener,noreferrer'))
      .catch((err) => setError(errorMessage(err, t('picker.errors.invite'))));
  }

  function create(withRole: Role | null) {
    if (!guild || !channel) return;
    const label = withRole
      ? t('channelLabelWithRole', { channel: channel.name, guild: guild.name, role: withRole.name })
      : t('channelLabel', { channel: channel.name, guild: guild.name });
    onCreate({
      type: 'discord_channel',
      metadata: { guild_id: guild.id, channel_id: channel.id, ...(withRole ? { mention_role_id: withRole.id } : {}) },
      label,
    });
    onOpenChange(false);
  }

  const stepIndex = mode === 'guild' ? 1 : mode === 'channel' ? 2 : 3;
  const titles: Record<Mode, string> = {
    guild: t('picker.guild.title'),
    channel: t('picker.channel.title'),
    role: t('picker.role.title'),
  };
  const descriptions: Record<Mode, string> = {
    guild: t('picker.guild.description'),
    channel: t('picker.channel.description', { guild: guild?.name ?? '' }),
    role: t('picker.role.description', { channel: channel?.name ?? '' }),
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="gap-5 sm:max-w-lg" data-testid="server-picker" data-mode={mode} aria-describedby="server-picker-description">
        <DialogHeader className="pr-6 text-left">
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase" data-testid="picker-step">
            {t('picker.step', { current: stepIndex, total: 3 })}
          </p>
          <DialogTitle>{titles[mode]}</DialogTitle>
          <DialogDescription id="server-picker-description">{descriptions[mode]}</DialogDescription>
        </DialogHeader>

        {guild && mode !== 'guild' && (
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground" data-testid="picker-breadcrumb">
            <GuildAvatar guild={guild} size="sm" />
            <span className="font-medium text-foreground">{guild.name}</span>
            {channel && mode === 'role' && (
              <>
                <span aria-hidden>›</span>
                <Hash className="size-3.5" aria-hidden />
                <span className="font-medium text-foreground">{channel.name}</span>
              </>
            )}
          </div>
        )}

        <div className="min-h-40">
          {error && (
            <Alert variant="destructive" className="mb-3" data-testid="picker-error">
              <span className="flex-1">{error}</span>
            </Alert>
          )}

          {mode === 'guild' && (
            <>
              {loading && !guilds ? (
                <ListSkeleton />
              ) : guilds && guilds.length === 0 ? (
                <EmptyText>{t('picker.guild.empty')}</EmptyText>
              ) : guilds ? (
                <OptionList label={t('picker.guild.title')} testId="guild-list">
                  {guilds.map((g) => (
                    <Option key={g.id} selected={guild?.id === g.id} onSelect={() => chooseGuild(g)} onActivate={() => activateGuild(g)} testId={`guild-${g.id}`}>
                      <GuildAvatar guild={g} />
                      <span className="min-w-0 flex-1 truncate font-medium">{g.name}</span>
                      {g.bot_present === false && (
                        <span className="inline-flex shrink-0 items-center gap-1 text-xs text-muted-foreground">
                          <Bot className="size-3.5" aria-hidden />
                          {t('picker.guild.botMissingBadge')}
                        </span>
                      )}
                    </Option>
                  ))}
                </OptionList>
              ) : null}
              {botMissing && guild && (
                <Alert variant="info" className="mt-3" data-testid="bot-missing">
                  <Bot />
                  <div className="min-w-0 flex-1 space-y-3">
                    <div className="space-y-1">
                      <p className="font-medium">{t('picker.botMissing.title')}</p>
                      <p className="text-muted-foreground">{t('picker.botMissing.description', { guild: guild.name })}</p>
                    </div>
                    <div className="flex flex-wrap gap-2">
                      <Button type="button" size="sm" variant="discord" onClick={openInvite} data-testid="invite-bot">
                        <ExternalLink />
                        {t('picker.botMissing.invite')}
                      </Button>
                      <Button type="button" size="sm" variant="outline" onClick={() => void recheck()} disabled={loading} data-testid="recheck-bot">
                        <RefreshCw className={cn(loading && 'animate-spin')} />
                        {t('picker.botMissing.recheck')}
                      </Button>
                    </div>
                  </div>
                </Alert>
              )}
            </>
          )}

          {mode === 'channel' && channels && (
            channels.length === 0 ? (
              <EmptyText>{t('picker.channel.empty')}</EmptyText>
            ) : (
              <OptionList label={t('picker.channel.title')} testId="channel-list">
                {channels.map((c) => (
                  <ChannelOption key={c.id} channel={c} selected={channel?.id === c.id} onSelect={() => setChannel(c)} />
                ))}
              </OptionList>
            )
          )}

          {mode === 'role' && channel?.bot_can_mention === false && (
            <Alert className="mb-3 border-warning/50 bg-warning/10 text-amber-800 dark:text-warning" data-testid="picker-mention-warning">
              <TriangleAlert />
              <span className="flex-1">{t('delivery:check.mentionWarning', { channel: channel.name })}</span>
            </Alert>
          )}
          {mode === 'role' &&
            (loading && !roles ? (
              <ListSkeleton />
            ) : roles && roles.length === 0 ? (
              <EmptyText>{t('picker.role.empty')}</EmptyText>
            ) : roles ? (
              <OptionList label={t('picker.role.title')} testId="role-list">
                {roles.map((r) => {
                  const color = roleColor(r.color);
                  return (
                    <Option key={r.id} selected={role?.id === r.id} onSelect={() => setRole(r)} testId={`role-${r.id}`}>
                      <span
                        className={cn('size-3 shrink-0 rounded-full ring-1 ring-black/10 dark:ring-white/15', !color && 'bg-zinc-400 dark:bg-zinc-500')}
                        style={color ? { backgroundColor: color } : undefined}
                        data-testid="role-color"
                        data-color={color ?? 'none'}
                        aria-hidden
                      />
                      <Shield className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
                      <span className="min-w-0 flex-1 truncate" style={color ? { color } : undefined}>
                        @{r.name}
                      </span>
                    </Option>
                  );
                })}
              </OptionList>
            ) : null)}
        </div>

        <DialogFooter className="gap-2 sm:justify-between">
          <div className="flex gap-2">
            {mode !== 'guild' && (
              <Button type="button" variant="ghost" onClick={back} data-testid="picker-back">
                <ArrowLeft />
                {t('picker.actions.back')}
              </Button>
            )}
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            {mode === 'guild' && (
              <Button type="button" onClick={next} disabled={!guild || botMissing || loading} data-testid="picker-next">
                {loading && guild ? <Spinner /> : null}
                {t('picker.actions.next')}
              </Button>
            )}
            {mode === 'channel' && (
              <>
                <Button type="button" variant="outline" onClick={() => void loadRoles()} disabled={!channel} data-testid="picker-add-role">
                  {t('picker.actions.addRole')}
                </Button>
                <Button type="button" onClick={() => create(null)} disabled={!channel} data-testid="picker-create">
                  <Check />
                  {t('picker.actions.create')}
                </Button>
              </>
            )}
            {mode === 'role' && (
              <>
                <Button type="button" variant="outline" onClick={() => create(null)} data-testid="picker-skip-role">
                  {t('picker.actions.skipRole')}
                </Button>
                <Button type="button" onClick={() => create(role)} disabled={!role} data-testid="picker-create">
                  <Check />
                  {t('picker.actions.create')}
                </Button>
              </>
            )}
          </div>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
