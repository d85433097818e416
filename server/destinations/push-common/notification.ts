/** What every push notification says, in the account's language (locales/<lang>/notifications.json). */
import { type Language, languageOfLocale } from '../../lib/language.ts';
import { reminderPageUrl } from '../../lib/reminder-page-url.ts';
import { alertText } from '../../lib/alert-lead.ts';
import type { LinkAction } from '../../lib/action-token.ts';
import { actionLinksFor } from '../../reminders/action-link-urls.ts';
import { ACTION_LABEL_KEYS, nt, whenText } from '../../reminders/action-page.ts';
import type { SendContext } from '../../scheduler/types.ts';
import type { SenderDeps } from '../types.ts';

export interface PushContent {
  language: Language;
  title: string;
  /** The reminder's text, with a note of the occurrence when the delivery is late. */
  message: string;
  /** The reminder's page in the dashboard; null for a test send (there is no reminder). */
  click: string | null;
  /** Snooze 10 min, Tomorrow, Done: label and signed link; empty for a test send. */
  actions: Array<{ action: LinkAction; label: string; url: string }>;
}

export async function pushContent(deps: Pick<SenderDeps, 'db' | 'config'>, ctx: SendContext): Promise<PushContent> {
  const language = languageOfLocale(ctx.account.locale);
  const late = ctx.late && !ctx.test && !ctx.alert ? `\n${nt(language, 'push.late', { when: whenText(language, ctx.occurrenceUtc, ctx.reminder.timezone) })}` : '';
  // An alert says how soon ("in 15 minutes: ..."); its actions would act on an occurrence not come yet.
  const message = ctx.alert && !ctx.test ? alertText(language, ctx.alert.beforeMinutes, ctx.reminder.message) : `${ctx.reminder.message}${late}`;
  const base = { language, title: nt(language, 'push.title'), message };
  if (ctx.test) return { ...base, click: null, actions: [] };
  if (ctx.alert) return { ...base, click: reminderPageUrl(deps.config.publicUrl, ctx.reminder.id), actions: [] };
  const links = await actionLinksFor(deps, { deliveryId: ctx.deliveryId, reminderId: ctx.reminder.id, occurrenceUtc: ctx.occurrenceUtc });
  return {
    ...base,
    click: reminderPageUrl(deps.config.publicUrl, ctx.reminder.id),
    actions: (['snooze10', 'tomorrow', 'done'] as const).map((action) => ({ action, label: nt(language, ACTION_LABEL_KEYS[action]), url: links[action] })),
  };
}
