import { Bot } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Guild } from '@/lib/api/reminders';
import { BotMissingAlert } from './bot-missing-alert';
import { GuildAvatar, Option } from './picker-options';
import { PickerStepList } from './picker-step-list';

interface PickerGuildStepProps {
  /** The account's servers, or null until loaded. */
  guilds: Guild[] | null;
  guild: Guild | null;
  loading: boolean;
  botMissing: boolean;
  onSelect: (guild: Guild) => void;
  /** A double click picks the server and goes on to its channels. */
  onActivate: (guild: Guild) => void;
  onInvite: () => void;
  onRecheck: () => void;
}

/** Step 1: the list of servers, and the invite prompt when the chosen one lacks the bot. */
export function PickerGuildStep({ guilds, guild, loading, botMissing, onSelect, onActivate, onInvite, onRecheck }: PickerGuildStepProps) {
  const { t } = useTranslation('destinations');
  return (
    <>
      <PickerStepList items={guilds} loading={loading} empty={t('picker.guild.empty')} label={t('picker.guild.title')} testId="guild-list">
        {(g) => (
          <Option key={g.id} selected={guild?.id === g.id} onSelect={() => onSelect(g)} onActivate={() => onActivate(g)} testId={`guild-${g.id}`}>
            <GuildAvatar guild={g} />
            <span className="min-w-0 flex-1 truncate font-medium">{g.name}</span>
            {g.bot_present === false && (
              <span className="inline-flex shrink-0 items-center gap-1 text-xs text-muted-foreground">
                <Bot className="size-3.5" aria-hidden />
                {t('picker.guild.botMissingBadge')}
              </span>
            )}
          </Option>
        )}
      </PickerStepList>
      {botMissing && guild && <BotMissingAlert guildName={guild.name} loading={loading} onInvite={onInvite} onRecheck={onRecheck} />}
    </>
  );
}
