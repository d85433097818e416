import { statfsSync } from 'node:fs';
import path from 'node:path';
import { type Config, VAPID_FALLBACK_SUBJECT } from '../config.ts';
import { createDatabase, type DatabaseHandle, isPostgresUrl } from '../db/connection.ts';
import { sqliteFileOf } from '../db/backup.ts';
import { createMigrator, knownMigrationNames } from '../db/migrate.ts';
import { isClockOff, measureClockSkew, TOLERANCE_MS } from '../lib/clock-skew.ts';
import { loadNodemailer } from '../lib/load-on-use.ts';
import { describeDatabase } from '../logging.ts';
import { classifyMailError } from '../mail/transport.ts';
import { whoamiMatrix } from '../destinations/matrix/check.ts';
import { inspectTelegramBot, TELEGRAM_WEBHOOK_PATH } from '../destinations/telegram/bot.ts';
import { appliedMigrationNames } from '../repositories/admin.ts';
import { readPostgresClock } from '../repositories/database-clock.ts';
import type { CommandResult } from './result.ts';

/*
 * `npm run admin -- doctor` (docs/operations.md "Administration"): checks each setting against what it names,
 * and says what is wrong and how to fix it. It changes nothing (no migration either).
 */

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skipped';

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  /** What to do about a warn or fail. */
  fix?: string;
}

/** Every outside call is bounded: a doctor that hangs helps nobody. */
const CALL_TIMEOUT_MS = 10_000;

const MiB = 1024 * 1024;
/** Below this the database soon cannot grow (a write on a full disk fails: docs/operations.md "When the database is busy or full"). */
const DISK_FAIL_BYTES = 100 * MiB;
const DISK_WARN_BYTES = 1024 * MiB;

async function checkDatabase(config: Config, handle: DatabaseHandle): Promise<Check[]> {
  const name = 'database';
  if (!(await handle.probe())) {
    return [{ name, status: 'fail', detail: `${describeDatabase(config.databaseUrl)} does not answer.`, fix: 'Check DATABASE_URL, and that PostgreSQL runs and accepts this user, or that the SQLite file is readable.' }];
  }
  const database: Check = { name, status: 'ok', detail: `${describeDatabase(config.databaseUrl)} answers.` };
  let applied: string[];
  try {
    applied = await appliedMigrationNames(handle.db);
  } catch {
    return [database, { name: 'migrations', status: 'warn', detail: 'The database has no schema yet.', fix: 'Start Chime once (or run npm run migrate): it creates it.' }];
  }
  const known = await knownMigrationNames();
  const unknown = applied.filter((m) => !known.includes(m));
  if (unknown.length) {
    return [database, { name: 'migrations', status: 'fail', detail: `The database was migrated by a newer Chime (${unknown.at(-1)} is unknown here).`, fix: 'Run the newer version of Chime, or restore a backup made by this one.' }];
  }
  const pending = (await createMigrator(handle.db).getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
  if (pending.length) {
    return [database, { name: 'migrations', status: 'warn', detail: `${pending.length} migration(s) not applied yet: ${pending.join(', ')}.`, fix: 'The next start applies them (on SQLite after writing a backup beside the database).' }];
  }
  return [database, { name: 'migrations', status: 'ok', detail: `Up to date (${applied.at(-1) ?? 'none'}).` }];
}

function checkDisk(config: Config): Check {
  const dir = isPostgresUrl(config.databaseUrl) ? process.cwd() : path.dirname(path.resolve(sqliteFileOf(config.databaseUrl)));
  const what = isPostgresUrl(config.databaseUrl) ? 'the working directory (PostgreSQL keeps its data elsewhere)' : 'the database folder';
  let free: number;
  try {
    const fs = statfsSync(dir);
    free = fs.bavail * fs.bsize;
  } catch (err) {
    return { name: 'disk', status: 'warn', detail: `Cannot read the free space of ${dir}: ${(err as Error).message}` };
  }
  const detail = `${(free / MiB).toFixed(0)} MiB free in ${what} (${dir}).`;
  if (free < DISK_FAIL_BYTES) return { name: 'disk', status: 'fail', detail, fix: 'Free some space now: writes fail on a full disk (reminders cannot be saved or delivered).' };
  if (free < DISK_WARN_BYTES) return { name: 'disk', status: 'warn', detail, fix: 'Free some space or grow the disk; backups before migrations need about the database size again.' };
  return { name: 'disk', status: 'ok', detail };
}

async function getJson(url: string, token: string): Promise<{ status: number; body: Record<string, unknown>; date: number | null }> {
  const response = await fetch(url, { headers: { Authorization: `Bot ${token}` }, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  const date = response.headers.get('date');
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: response.status, body, date: date ? Date.parse(date) : null };
}

const PORTAL = 'https://discord.com/developers/applications';

/** The token against Discord's API, then the application id; Discord's Date header for the clock. */
async function checkDiscord(config: Config): Promise<{ checks: Check[]; discordClockMs: (() => Promise<number>) | null }> {
  if (!config.discord) {
    return { checks: [{ name: 'discord', status: 'skipped', detail: `Not configured (missing ${config.discordMissing.join(', ')}).` }], discordClockMs: null };
  }
  const { apiUrl, token, clientId } = config.discord;
  let me;
  try {
    me = await getJson(`${apiUrl}/users/@me`, token);
  } catch (err) {
    return {
      checks: [{ name: 'discord', status: 'fail', detail: `Discord's API at ${apiUrl} cannot be reached: ${(err as Error).message}.`, fix: 'Check this machine\'s outgoing network and DNS (and DISCORD_API_URL, normally left empty).' }],
      discordClockMs: null,
    };
  }
  if (me.status === 401) {
    return {
      checks: [{ name: 'discord', status: 'fail', detail: 'Discord refuses DISCORD_TOKEN (401 Unauthorized): it is wrong, or was reset.', fix: `Copy the bot token again (${PORTAL} > your application > Bot > Reset Token) into DISCORD_TOKEN, then restart Chime.` }],
      discordClockMs: null,
    };
  }
  if (me.status !== 200) {
    return { checks: [{ name: 'discord', status: 'fail', detail: `Discord answered ${me.status} for the bot's own user.`, fix: 'Try again later; https://discordstatus.com says whether Discord is down.' }], discordClockMs: null };
  }
  const checks: Check[] = [{ name: 'discord', status: 'ok', detail: `DISCORD_TOKEN signs in as the bot ${String(me.body.username)} (${String(me.body.id)}).` }];
  const app = await getJson(`${apiUrl}/applications/@me`, token).catch(() => null);
  if (!app || app.status !== 200) {
    checks.push({ name: 'discord application', status: 'warn', detail: 'Discord did not say which application the token belongs to.', fix: `Check that DISCORD_CLIENT_ID is the Application ID shown at ${PORTAL}.` });
  } else if (String(app.body.id) !== clientId) {
    checks.push({
      name: 'discord application',
      status: 'fail',
      detail: `DISCORD_CLIENT_ID is ${clientId}, but DISCORD_TOKEN belongs to application ${String(app.body.id)}${app.body.name ? ` (${String(app.body.name)})` : ''}.`,
      fix: `Set DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET to those of the application the bot belongs to (${PORTAL} > General Information).`,
    });
  } else {
    checks.push({ name: 'discord application', status: 'ok', detail: `DISCORD_CLIENT_ID matches the bot's application${app.body.name ? ` (${String(app.body.name)})` : ''}.` });
  }
  const discordClockMs = async () => {
    const reading = await getJson(`${apiUrl}/users/@me`, token);
    if (reading.date === null) throw new Error('no Date header');
    // The Date header has whole seconds: the middle of that second.
    return reading.date + 500;
  };
  return { checks, discordClockMs };
}

async function checkSmtp(config: Config): Promise<Check> {
  if (!config.mail) return { name: 'smtp', status: 'skipped', detail: `Not configured (missing ${config.mailMissing.join(', ')}).` };
  const url = new URL(config.mail.smtpUrl);
  const where = `${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`;
  const transport = loadNodemailer().createTransport({ url: config.mail.smtpUrl, connectionTimeout: CALL_TIMEOUT_MS, greetingTimeout: CALL_TIMEOUT_MS, socketTimeout: CALL_TIMEOUT_MS, logger: false, debug: false } as never);
  try {
    await transport.verify();
    return { name: 'smtp', status: 'ok', detail: `The SMTP server at ${where} accepts Chime${url.username ? `'s login (${decodeURIComponent(url.username)})` : ''}.` };
  } catch (err) {
    const failure = classifyMailError(err);
    const login = (err as { code?: string }).code === 'EAUTH';
    return {
      name: 'smtp',
      status: 'fail',
      detail: `${failure.error} (${where}).`,
      fix: login
        ? 'Check the user name and password in SMTP_URL (smtp://user:password@host:587; characters such as @ or / in them are written %40, %2F).'
        : 'Check the host and port in SMTP_URL (587 with STARTTLS: smtp://, 465 with TLS: smtps://) and that this machine may connect to it (firewall, provider blocking port 25/587).',
    };
  } finally {
    transport.close();
  }
}

/** The Matrix bot's token against its homeserver (`GET /account/whoami`), through the SSRF guard like every delivery. */
export async function checkMatrix(config: Config): Promise<Check> {
  if (!config.matrix) return { name: 'matrix', status: 'skipped', detail: `Not configured (missing ${config.matrixMissing.join(', ')}).` };
  const host = new URL(config.matrix.homeserverUrl).host;
  const who = await whoamiMatrix(config);
  if (who.ok) return { name: 'matrix', status: 'ok', detail: `The homeserver at ${host} knows MATRIX_ACCESS_TOKEN as ${who.userId}: users invite that account to their rooms.` };
  const unauthorized = who.code === 'MATRIX_UNAUTHORIZED';
  return {
    name: 'matrix',
    status: 'fail',
    detail: `${who.error} (${who.code}).`,
    fix: unauthorized
      ? "Set MATRIX_ACCESS_TOKEN to a valid access token of the bot's account (Element: Settings > Help & About > Access token, or log in with POST /_matrix/client/v3/login)."
      : 'Check MATRIX_HOMESERVER_URL (the client-server API address, e.g. https://matrix.example.org) and that this machine may reach it; a homeserver on your own network needs WEBHOOK_ALLOW_PRIVATE_TARGETS=true.',
  };
}

/**
 * Browser push (docs/notifications.md "Browser push"): browsers subscribe only on secure pages
 * (https, or this machine itself), and push services want a contact that reaches someone.
 */
export function checkWebPush(config: Pick<Config, 'publicUrl' | 'vapidSubject'>): Check {
  let url: URL | null = null;
  try {
    url = new URL(config.publicUrl);
  } catch {
    /* the public url check says what is wrong with it */
  }
  const thisMachine = url !== null && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (!url || (url.protocol !== 'https:' && !thisMachine)) {
    return {
      name: 'web push',
      status: 'warn',
      detail: `Browsers offer push notifications only on https pages: at ${config.publicUrl}, "This browser" cannot subscribe.`,
      fix: 'Serve Chime over https (a reverse proxy with a certificate) and set PUBLIC_URL to that address.',
    };
  }
  if (config.vapidSubject === VAPID_FALLBACK_SUBJECT) {
    return {
      name: 'web push',
      status: 'warn',
      detail: `Push requests carry the contact ${VAPID_FALLBACK_SUBJECT}, which reaches nobody (VAPID_SUBJECT is not set and PUBLIC_URL is not https); Apple's push service refuses it.`,
      fix: 'Set VAPID_SUBJECT to mailto:<your address> or an https page of yours, then restart Chime.',
    };
  }
  return { name: 'web push', status: 'ok', detail: `Push requests name ${config.vapidSubject} as their contact; the keys are made at the first start and kept in the database.` };
}

/** The Telegram bot's token (`getMe`) and where Telegram posts its updates (`getWebhookInfo`). */
export async function checkTelegram(config: Config): Promise<Check> {
  if (!config.telegram) return { name: 'telegram', status: 'skipped', detail: `Not configured (missing ${config.telegramMissing.join(', ')}).` };
  const bot = await inspectTelegramBot(config);
  if (!bot.ok) {
    const token = bot.code === 'TELEGRAM_UNAUTHORIZED' || bot.code === 'TELEGRAM_NOT_FOUND';
    return {
      name: 'telegram',
      status: 'fail',
      detail: `${bot.error} (${bot.code}).`,
      fix: token ? 'Set TELEGRAM_BOT_TOKEN to the token @BotFather gave (/mybots > the bot > API Token; /revoke makes a new one).' : 'Check that this machine may reach Telegram (TELEGRAM_API_URL when set).',
    };
  }
  const expected = `${config.publicUrl.replace(/\/+$/, '')}${TELEGRAM_WEBHOOK_PATH}`;
  if (bot.webhookUrl !== expected) {
    return {
      name: 'telegram',
      status: 'warn',
      detail: `The bot is @${bot.username}, but Telegram posts its updates to ${bot.webhookUrl || 'nowhere'}, not ${expected}: button presses and /start codes do not reach Chime.`,
      fix: 'Set PUBLIC_URL to the https address Telegram can reach, then restart Chime: it registers the webhook when it starts.',
    };
  }
  if (bot.lastError) {
    return { name: 'telegram', status: 'warn', detail: `The bot is @${bot.username}; Telegram's last post to the webhook failed: ${bot.lastError} (${bot.pending} updates waiting).`, fix: 'Check that the reverse proxy passes /telegram/webhook to Chime over https.' };
  }
  return { name: 'telegram', status: 'ok', detail: `The bot is @${bot.username}, and Telegram posts its updates to ${expected}.` };
}

async function checkPublicUrl(config: Config): Promise<Check> {
  const url = `${config.publicUrl}/healthz`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS), redirect: 'manual' });
    const body = (await response.json().catch(() => null)) as { status?: string } | null;
    if (body && typeof body.status === 'string' && (response.status === 200 || response.status === 503)) {
      return body.status === 'ok'
        ? { name: 'public url', status: 'ok', detail: `${config.publicUrl} reaches Chime (/healthz: ok).` }
        : { name: 'public url', status: 'warn', detail: `${config.publicUrl} reaches Chime, which says it is ${body.status}.`, fix: 'See docs/operations.md "Administration" for what that status means.' };
    }
    return { name: 'public url', status: 'fail', detail: `${url} answers ${response.status}, not Chime's health check.`, fix: 'Point the reverse proxy at Chime (HOST and PORT), or correct PUBLIC_URL.' };
  } catch (err) {
    const cause = ((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name) || 'error';
    return {
      name: 'public url',
      status: 'fail',
      detail: `${url} cannot be reached from this machine (${cause}).`,
      fix: 'Start Chime if it is not running; otherwise check PUBLIC_URL, the reverse proxy and DNS (people and Discord use this address).',
    };
  }
}

async function checkClock(config: Config, handle: DatabaseHandle | null, discordClockMs: (() => Promise<number>) | null): Promise<Check> {
  const reference = handle?.dialect === 'postgres' ? { name: "the PostgreSQL server's clock", read: () => readPostgresClock(handle.db) } : discordClockMs ? { name: "Discord's clock", read: discordClockMs } : null;
  if (!reference) return { name: 'clock', status: 'skipped', detail: 'Nothing to compare with (neither PostgreSQL nor Discord is configured).' };
  try {
    const reading = await measureClockSkew(reference.read);
    // Discord's clock is read to the second.
    const tolerance = reference.read === discordClockMs ? TOLERANCE_MS + 1000 : TOLERANCE_MS;
    const off = reference.read === discordClockMs ? Math.abs(reading.skewMs) - reading.roundTripMs / 2 > tolerance : isClockOff(reading);
    const detail = `This machine's clock is ${Math.abs(reading.skewMs)} ms ${reading.skewMs >= 0 ? 'ahead of' : 'behind'} ${reference.name}.`;
    return off ? { name: 'clock', status: 'warn', detail, fix: 'Keep the clock in sync (systemd-timesyncd, chrony or ntpd): reminders fire off by as much.' } : { name: 'clock', status: 'ok', detail };
  } catch (err) {
    return { name: 'clock', status: 'skipped', detail: `Could not read ${reference.name}: ${(err as Error).message}.` };
  }
}

export async function runDoctor(config: Config): Promise<Check[]> {
  const checks: Check[] = [];
  let handle: DatabaseHandle | null = null;
  try {
    handle = createDatabase(config.databaseUrl);
    checks.push(...(await checkDatabase(config, handle)));
  } catch (err) {
    checks.push({ name: 'database', status: 'fail', detail: `${describeDatabase(config.databaseUrl)} cannot be opened: ${(err as Error).message}`, fix: 'Check DATABASE_URL and the permissions of its folder.' });
  }
  try {
    checks.push(checkDisk(config));
    const discord = await checkDiscord(config);
    checks.push(...discord.checks);
    checks.push(await checkSmtp(config));
    checks.push(await checkMatrix(config));
    checks.push(await checkTelegram(config));
    checks.push(checkWebPush(config));
    checks.push(await checkPublicUrl(config));
    checks.push(await checkClock(config, handle, discord.discordClockMs));
  } finally {
    await handle?.db.destroy();
  }
  return checks;
}

const MARK: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL', skipped: 'skip' };

export async function doctorCommand(config: Config): Promise<CommandResult> {
  const checks = await runDoctor(config);
  const failed = checks.filter((c) => c.status === 'fail').length;
  const warned = checks.filter((c) => c.status === 'warn').length;
  const lines = checks.map((c) => `[${MARK[c.status]}] ${c.name}: ${c.detail}${c.fix ? `\n       fix: ${c.fix}` : ''}`);
  lines.push(failed ? `${failed} problem(s) to fix${warned ? `, ${warned} warning(s)` : ''}.` : warned ? `No problem; ${warned} warning(s).` : 'Everything checked is fine.');
  return { exitCode: failed ? 1 : 0, text: lines.join('\n'), data: { ok: failed === 0, checks } };
}
