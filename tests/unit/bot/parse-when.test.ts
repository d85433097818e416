/** Pure parts of the bot: natural-language times in zones and languages, i18n, message building. */
import { describe, expect, it } from 'vitest';
import { commandPayloads, restBase } from '../../../bot/bot.ts';
import { matchTimeZones } from '../../../bot/commands/timezone.ts';
import { sameTimeNextDay } from '../../../server/reminders/delivered-buttons.ts';
import { buildDeliveryMessage } from '../../../server/destinations/discord-common/delivery-message.ts';
import { truncate } from '../../../server/discord/message-text.ts';
import { languageOf, t } from '../../../server/discord/i18n.ts';
import { parseWhen } from '../../../server/reminders/schedule-text/parse-when.ts';

const at = (text: string, zone: string, locale: string, nowIso: string) => {
  const r = parseWhen(text, zone, locale, Date.parse(nowIso));
  return r.ok ? new Date(r.instantMs).toISOString() : null;
};

describe('parseWhen', () => {
  // Saturday 2026-03-28 21:00 in Paris (CET, +01:00); clocks go forward that night at 02:00.
  const SPRING = '2026-03-28T20:00:00Z';
  // Saturday 2026-10-24 22:00 in Paris (CEST, +02:00); clocks go back that night at 03:00.
  const AUTUMN = '2026-10-24T20:00:00Z';

  it('Europe/Paris across the spring-forward change uses the offset of the target date', () => {
    // A fixed offset taken from "now" (+01:00) would say 08:00Z.
    expect(at('tomorrow at 9', 'Europe/Paris', 'en-US', SPRING)).toBe('2026-03-29T07:00:00.000Z');
    // 02:30 does not exist that night: the end of the gap (03:00 CEST).
    expect(at('tomorrow at 2:30', 'Europe/Paris', 'en-US', SPRING)).toBe('2026-03-29T01:00:00.000Z');
    // Durations are elapsed time, not wall-clock arithmetic.
    expect(at('in 6 hours', 'Europe/Paris', 'en-US', SPRING)).toBe('2026-03-29T02:00:00.000Z');
    expect(at('in 10 minutes', 'Europe/Paris', 'en-US', SPRING)).toBe('2026-03-28T20:10:00.000Z');
  });

  it('Europe/Paris across the fall-back change; an ambiguous time is the earlier instant', () => {
    expect(at('tomorrow at 9', 'Europe/Paris', 'en-US', AUTUMN)).toBe('2026-10-25T08:00:00.000Z');
    expect(at('tomorrow at 2:30', 'Europe/Paris', 'en-US', AUTUMN)).toBe('2026-10-25T00:30:00.000Z');
  });

  it('America/New_York: weekdays, ISO dates and its own DST date', () => {
    const sunday = '2026-11-22T15:00:00Z'; // Sunday 10:00 EST
    expect(at('friday 18:30', 'America/New_York', 'en-US', sunday)).toBe('2026-11-27T23:30:00.000Z');
    expect(at('2027-01-05 08:00', 'America/New_York', 'en-US', sunday)).toBe('2027-01-05T13:00:00.000Z');
    // 2026-03-08: EST -> EDT.
    expect(at('tomorrow at 9', 'America/New_York', 'en-US', '2026-03-07T15:00:00Z')).toBe('2026-03-08T13:00:00.000Z');
  });

  it('Asia/Kathmandu (+05:45)', () => {
    const now = '2026-11-22T00:00:00Z'; // 05:45 local
    expect(at('tomorrow at 9', 'Asia/Kathmandu', 'en-US', now)).toBe('2026-11-23T03:15:00.000Z');
    expect(at('at 7', 'Asia/Kathmandu', 'en-US', now)).toBe('2026-11-22T01:15:00.000Z');
    expect(at('in 10 minutes', 'Asia/Kathmandu', 'en-US', now)).toBe('2026-11-22T00:10:00.000Z');
  });

  it('French and Spanish, with English as the fallback', () => {
    expect(at('demain à 9h', 'Europe/Paris', 'fr', SPRING)).toBe('2026-03-29T07:00:00.000Z');
    expect(at('vendredi 18h30', 'Europe/Paris', 'fr', SPRING)).toBe('2026-04-03T16:30:00.000Z');
    expect(at('dans 10 minutes', 'Europe/Paris', 'fr', SPRING)).toBe('2026-03-28T20:10:00.000Z');
    expect(at('mañana a las 9', 'Europe/Madrid', 'es-ES', SPRING)).toBe('2026-03-29T07:00:00.000Z');
    expect(at('viernes 18:30', 'Europe/Madrid', 'es-419', SPRING)).toBe('2026-04-03T16:30:00.000Z');
    expect(at('en 10 minutos', 'Europe/Madrid', 'es-ES', SPRING)).toBe('2026-03-28T20:10:00.000Z');
    expect(at('tomorrow at 9', 'Europe/Paris', 'fr', SPRING)).toBe('2026-03-29T07:00:00.000Z');
    expect(at('2027-01-05 08:00', 'Europe/Paris', 'es-ES', SPRING)).toBe('2027-01-05T07:00:00.000Z');
  });

  it('an explicit zone in the text wins over the account zone', () => {
    expect(at('tomorrow at 9am UTC', 'Europe/Paris', 'en-US', SPRING)).toBe('2026-03-29T09:00:00.000Z');
  });

  it('past times come back as such (the command refuses them) and gibberish is unparseable', () => {
    expect(at('yesterday at 9', 'Europe/Paris', 'en-US', SPRING)).toBe('2026-03-27T08:00:00.000Z');
    expect(at('hello there', 'Europe/Paris', 'en-US', SPRING)).toBeNull();
    expect(at('   ', 'Europe/Paris', 'en-US', SPRING)).toBeNull();
  });
});

describe('i18n', () => {
  it('picks the language from the Discord locale', () => {
    expect(languageOf('fr')).toBe('fr');
    expect(languageOf('es-ES')).toBe('es');
    expect(languageOf('es-419')).toBe('es');
    expect(languageOf('en-US')).toBe('en');
    expect(languageOf('de')).toBe('en');
    expect(languageOf(null)).toBe('en');
  });

  it('interpolates {{vars}} and falls back to English then to the key', () => {
    expect(t('fr', 'delivery.snoozed', { unix: 42 })).toBe('💤 Reporté jusqu\'à <t:42:F> (<t:42:R>).');
    expect(t('es-419', 'list.page', { page: 2, pages: 3 })).toBe('Página 2/3');
    expect(t('pt-BR', 'delivery.done')).toBe('Done');
    expect(t('fr', 'no.such.key')).toBe('no.such.key');
  });

  it('every command, option and choice is valid for Discord in every language', () => {
    const NAME = /^[-_\p{Ll}\p{Lm}\p{Lo}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
    const check = (item: any, path: string) => {
      expect(item.name, path).toMatch(NAME);
      expect(item.description.length, `${path} description`).toBeGreaterThan(0);
      expect(item.description.length, `${path} description`).toBeLessThanOrEqual(100);
      for (const locale of ['fr', 'es-ES', 'es-419']) {
        expect(item.name_localizations?.[locale], `${path} name ${locale}`).toMatch(NAME);
        const d = item.description_localizations?.[locale] as string;
        expect(d?.length, `${path} description ${locale}`).toBeGreaterThan(0);
        expect(d.length, `${path} description ${locale}: ${d}`).toBeLessThanOrEqual(100);
      }
      for (const choice of item.choices ?? []) {
        expect(choice.name.length).toBeLessThanOrEqual(100);
        expect(Object.keys(choice.name_localizations ?? {}).sort()).toEqual(['es-419', 'es-ES', 'fr']);
      }
      const seen = new Set<string>();
      for (const option of item.options ?? []) {
        check(option, `${path}.${option.name}`);
        expect(seen.has(option.name), `duplicate ${option.name}`).toBe(false);
        seen.add(option.name);
      }
    };
    const all = commandPayloads();
    const payloads = all.filter((c) => (c.type ?? 1) === 1);
    expect(payloads.map((c) => c.name)).toEqual(['remind', 'reminders', 'reminder', 'timezone', 'server']);
    for (const c of payloads) check(c, `/${c.name}`);
    // Context-menu commands: any characters, 1-32 of them, no description, in every language.
    const menus = all.filter((c) => c.type === 3);
    expect(menus.map((c) => c.name)).toEqual(['Remind me about this']);
    for (const c of menus) {
      expect(c).not.toHaveProperty('description');
      for (const name of [c.name, ...['fr', 'es-ES', 'es-419'].map((l) => c.name_localizations?.[l as 'fr'] ?? '')]) {
        expect(name.length, name).toBeGreaterThan(0);
        expect(name.length, name).toBeLessThanOrEqual(32);
      }
    }
    // Localized command names must not collide within a language either.
    for (const locale of ['fr', 'es-ES'] as const) {
      const names = payloads.map((c) => c.name_localizations?.[locale]);
      expect(new Set(names).size).toBe(names.length);
    }
  });
});

describe('delivery message', () => {
  const base = { reminderId: 'r-1', locale: 'en-US', nonce: 'msg_0123456789abcdef0123456789' };

  it('a DM: header, message, four buttons, nobody pinged, a 25-character nonce enforced', () => {
    const body = buildDeliveryMessage({ ...base, message: 'Water the plants @everyone <@123456789012345678>' });
    expect(body.content).toBe('⏰ **Reminder**\nWater the plants @everyone <@123456789012345678>');
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.nonce).toBe('msg_0123456789abcdef01234');
    expect(body.enforce_nonce).toBe(true);
    const ids = (body.components as any[])[0].components.map((c: any) => c.custom_id);
    expect(ids).toEqual(['rem:snooze10:r-1', 'rem:snooze60:r-1', 'rem:tomorrow:r-1', 'rem:done:r-1']);
  });

  it('a channel with a role: the role first, only that role may ping; cut to 2000 characters', () => {
    const body = buildDeliveryMessage({ ...base, locale: 'fr', message: '🙂'.repeat(1500), roleId: '300000000000000021' });
    expect(body.content!.startsWith('<@&300000000000000021> ⏰ **Rappel**\n')).toBe(true);
    expect(body.content!.length).toBeLessThanOrEqual(2000);
    expect(body.content!.endsWith('…')).toBe(true);
    expect(body.allowed_mentions).toEqual({ parse: [], roles: ['300000000000000021'] });
    expect((body.components as any[])[0].components.map((c: any) => c.label)).toEqual(['Reporter de 10 min', "Reporter d'1 h", 'Demain', 'Terminé']);
  });

  it('a late delivery says when it was due', () => {
    const body = buildDeliveryMessage({ ...base, message: 'x', lateOccurrenceMs: Date.parse('2026-01-01T00:00:00Z') });
    expect(body.content).toContain('<t:1767225600:F>');
  });

  it('the "Tomorrow" button carries the occurrence it delivers', () => {
    const occurrence = Date.parse('2026-10-24T07:00:30Z');
    const body = buildDeliveryMessage({ ...base, message: 'x', occurrenceMs: occurrence });
    expect((body.components as any[])[0].components.map((c: any) => c.custom_id)).toEqual([
      `rem:snooze10:${base.reminderId}`,
      `rem:snooze60:${base.reminderId}`,
      `rem:tomorrow:${base.reminderId}:${occurrence}`,
      `rem:done:${base.reminderId}`,
    ]);
  });

  it('truncate never splits a surrogate pair', () => {
    expect(truncate('ab🙂cd', 4)).toBe('ab…');
    expect(truncate('abc', 3)).toBe('abc');
  });
});

describe('helpers', () => {
  it('"Tomorrow, same time" is one calendar day later on the wall clock (23 h across spring-forward)', () => {
    const fri = Date.parse('2026-03-28T08:00:00Z'); // 09:00 CET
    expect(new Date(sameTimeNextDay(fri, 'Europe/Paris')).toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(new Date(sameTimeNextDay(Date.parse('2026-12-31T23:30:00Z'), 'UTC')).toISOString()).toBe('2027-01-01T23:30:00.000Z');
  });

  it('"Tomorrow" keeps the occurrence\'s wall clock to the second: 25 h across fall-back, 23 h across spring-forward, late presses', () => {
    const iso = (ms: number) => new Date(ms).toISOString();
    // Saturday 24 Oct 2026, 09:00:30 CEST; Paris falls back on Sunday: 09:00:30 CET is 25 h later.
    const sat = Date.parse('2026-10-24T07:00:30Z');
    expect(iso(sameTimeNextDay(sat, 'Europe/Paris', sat + 5_000))).toBe('2026-10-25T08:00:30.000Z');
    expect(sameTimeNextDay(sat, 'Europe/Paris') - sat).toBe(25 * 3_600_000);
    // New York springs forward on 14 Mar 2027: 07:15 EST -> 07:15 EDT is 23 h later.
    const ny = Date.parse('2027-03-13T12:15:00Z');
    expect(iso(sameTimeNextDay(ny, 'America/New_York', ny + 60_000))).toBe('2027-03-14T11:15:00.000Z');
    // Pressed on a late delivery when "the next day" has already passed: the next day still ahead, same wall clock.
    expect(iso(sameTimeNextDay(sat, 'Europe/Paris', Date.parse('2026-10-25T10:00:00Z')))).toBe('2026-10-26T08:00:30.000Z');
    expect(iso(sameTimeNextDay(sat, 'Europe/Paris', Date.parse('2026-10-25T06:00:00Z')))).toBe('2026-10-25T08:00:30.000Z');
  });

  it('time zone search: substring, spaces match underscores, city prefix first, at most 25', () => {
    expect(matchTimeZones('new york')[0]).toBe('America/New_York');
    expect(matchTimeZones('paris')[0]).toBe('Europe/Paris');
    expect(matchTimeZones('par').slice(0, 2)).toEqual(['America/Paramaribo', 'Europe/Paris']);
    expect(matchTimeZones('utc')).toContain('UTC');
    expect(matchTimeZones('america').length).toBe(25);
    expect(matchTimeZones('')).toHaveLength(25);
    expect(matchTimeZones('zzzz')).toEqual([]);
    // Suggested under the names Chime stores, not Node's legacy spellings.
    expect(matchTimeZones('kolkata')[0]).toBe('Asia/Kolkata');
    expect(matchTimeZones('calcutta')).toEqual([]);
    expect(matchTimeZones('kyiv')[0]).toBe('Europe/Kyiv');
  });

  it('REST base without the version (discord.js adds it)', () => {
    expect(restBase('https://discord.com/api/v10')).toBe('https://discord.com/api');
    expect(restBase('http://127.0.0.1:4000/api/v10/')).toBe('http://127.0.0.1:4000/api');
  });
});
