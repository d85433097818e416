/**
 * Property-based robustness: thousands of random and malformed requests against every endpoint,
 * sent by a signed-in user A. Whatever arrives, the server answers < 500, every 4xx is
 * `{ error, code }`, and account B's data does not change. The routes come from the app itself
 * (`app.registeredRoutes()`): a route added without a generator here fails the run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { sendRequest } from '../../../helpers/http.ts';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';
import { type SmtpSink, startSmtpSink } from '../../../helpers/smtp-sink.ts';
import { formatRRule, parseRRule, type ParsedRRule } from '../../../../server/time/rrule.ts';

type User = Awaited<ReturnType<typeof signUp>>;
/** `throwaway`: a fresh account signed up for this one request (logout, account deletion). */
type Auth = 'A' | 'none' | 'cookie-no-origin' | 'cookie-same-origin' | 'bogus' | 'throwaway';
type IdPick = { kind: 'A' | 'B'; n: number } | { kind: 'raw'; s: string };
/** A destination of the picked reminder (by index), or a made-up id. */
type DestPick = { kind: 'own'; n: number } | { kind: 'raw'; s: string };

interface Spec {
  method: string;
  /** Path template: `{id}` is replaced by a resolved reminder id, `{dest}` by one of its destinations. */
  path: string;
  id?: IdPick;
  dest?: DestPick;
  query?: string;
  auth: Auth;
  contentType?: string;
  body?: string;
}

// --- value generators ---------------------------------------------------------------------------

const RECURRENCES = ['ONCE', 'YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'WORKDAYS', 'WEEKEND'];
const ZONES = ['UTC', 'Europe/Paris', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/St_Johns', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Etc/GMT+12', 'Etc/GMT-14', 'Antarctica/Troll', 'utc', 'Mars/Base', '+05:00', ''];
const TRICKY_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '1e400',
  '2030-07-01',
  '09:00',
  'DAILY',
  'daily',
  'Europe/Paris',
  'a@example.com',
  'https://hooks.example.com/x',
  'http://127.0.0.1/',
  'javascript:alert(1)',
  '9999-12-31',
  '1970-01-01',
  '0000-01-01',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '2030-02-30',
  '24:00',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '"; DROP TABLE reminders; --',
  '💥🦄⏰',
  '\u202e\u200b',
];

const huge = fc.constantFrom(1_000, 20_000, 70_000).map((n) => 'x'.repeat(n));
const str = fc.oneof(
  { weight: 4, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 4, arbitrary: fc.constantFrom(...TRICKY_STRINGS) },
  { weight: 1, arbitrary: huge },
);
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: str },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1, 1.5, 2 ** 53, -(2 ** 53), 1e308, Number.MAX_SAFE_INTEGER) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 60 }) },
);
const oneOfOr = <T>(good: fc.Arbitrary<T>, goodWeight = 3) => fc.oneof({ weight: goodWeight, arbitrary: good as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: nasty });

const pad = (n: number, w: number) => String(n).padStart(w, '0');
/**
 * A fuzz value as text. String() throws on objects whose toString/valueOf keys are not functions,
 * which fc.jsonValue makes ({"toString": 1}); those go out as their JSON instead.
 */
const asText = (v: unknown): string => {
  try {
    return String(v);
  } catch {
    return JSON.stringify(v) ?? '';
  }
};
/** encodeURIComponent throws on lone surrogates; UTF-8 round-trip turns them into U+FFFD first. */
const enc = (s: string) => encodeURIComponent(Buffer.from(s, 'utf8').toString('utf8'));
/** A Discord server id, or what a client might send instead. */
const guildId = fc.oneof(fc.bigInt({ min: 10n ** 16n, max: 10n ** 19n }).map(String), fc.string({ minLength: 1, maxLength: 70 }));
const dateStr = fc.oneof(
  fc.tuple(fc.integer({ min: 1960, max: 10_001 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 })).map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`),
  fc.tuple(fc.integer({ min: 2020, max: 2040 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 })).map(([y, m, d]) => `${y}-${pad(m, 2)}-${pad(d, 2)}`),
  fc.constantFrom('2030-07-01', '9999-12-31', '1970-01-01', '2032-02-29', '2031-02-29', 'tomorrow', ''),
);
const timeStr = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 })).map(([h, m]) => `${pad(h, 2)}:${pad(m, 2)}`),
  fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 60 })).map(([h, m, s]) => `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}`),
  fc.constantFrom('00:00', '23:59', '9:5', '24:00', 'noon', ''),
);
const isoStr = fc.oneof(
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.date({ min: new Date('2026-01-01'), max: new Date('2040-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', '9999-12-31T23:59:59Z', '2030-01-01', '2030-01-01T00:00:00+14:00', 'now', ''),
);
const recurrence = fc.oneof(fc.constantFrom(...RECURRENCES, ...RECURRENCES.map((r) => r.toLowerCase()), 'CUSTOM', 'custom', 'never', '', null), nasty);
/** RRULE values: valid ones, ones that never fire, refused parts, and noise. */
const rrule = fc.oneof(
  fc.constantFrom(
    'FREQ=DAILY',
    'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20400301T000000Z',
    'FREQ=MONTHLY;BYDAY=1MO;COUNT=10',
    'FREQ=MONTHLY;BYMONTHDAY=-1',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
    'FREQ=MINUTELY;INTERVAL=5',
    'FREQ=MINUTELY;INTERVAL=1',
    'FREQ=HOURLY;INTERVAL=100000;COUNT=100000',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=DAILY;UNTIL=20200101T000000Z',
    'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1,1,-2',
    'RRULE:FREQ=HOURLY',
    'FREQ=DAILY;BYHOUR=3',
    'FREQ=DAILY;FREQ=DAILY',
    'FREQ=WEEKLY;WKST=XX',
    '',
  ),
  fc.string({ maxLength: 80 }),
  nasty,
);
const zone = oneOfOr(fc.constantFrom(...ZONES));
const snowflake = fc.bigInt({ min: 10n ** 14n, max: 10n ** 20n }).map(String);
// Host names that cannot resolve (.invalid, RFC 6761): the test-send routes must never reach the internet.
const unresolvable = fc.webUrl().map((u) => {
  const url = new URL(u);
  url.hostname = `${url.hostname}.invalid`;
  return url.href;
});
const webhookUrl = fc.oneof(
  fc.constantFrom('https://hooks.example.com/a', 'http://hooks.example.com/b', 'http://127.0.0.1:9/x', 'http://hooks.invalid:6379/', 'http://[::127.0.0.1]/', 'ftp://x', 'https://user:pw@example.com/', 'not a url', ''),
  unresolvable,
  huge.map((s) => `https://example.com/${s}`),
);
/** Test sends: mostly the local sink (`{sink}` is replaced when sending), or addresses that fail fast. */
const testUrl = fc.oneof(fc.constant('{sink}/hook'), fc.constant('{sink}/hook'), webhookUrl);
const destination = fc.record(
  {
    id: oneOfOr(fc.uuid()),
    type: oneOfOr(fc.constantFrom('webhook', 'webhook', 'discord_dm', 'discord_channel', '__proto__', 'constructor', 'email')),
    metadata: oneOfOr(
      fc.record(
        {
          url: oneOfOr(webhookUrl),
          platform: oneOfOr(fc.constantFrom('generic', 'discord', 'slack', 'teams')),
          username: oneOfOr(fc.string({ maxLength: 90 })),
          guild_id: oneOfOr(snowflake),
          channel_id: oneOfOr(snowflake),
          mention_role_id: oneOfOr(snowflake),
          address: oneOfOr(fc.oneof(fc.emailAddress(), fc.constantFrom('a@b', 'x@example.com>, y@example.com', 'A@EXAMPLE.COM'))),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);
const reminderModel = {
  date: oneOfOr(dateStr),
  time: oneOfOr(timeStr),
  message: oneOfOr(fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom('x'.repeat(2000), 'x'.repeat(2001), '   '))),
  recurrence,
  rrule: oneOfOr(rrule),
  timezone: zone,
  destinations: oneOfOr(fc.array(destination, { maxLength: 12 })),
};
/** Mostly well-formed reminders, so the generator reaches the scheduling and storage code too. */
const plausibleReminder = fc.record(
  {
    date: oneOfOr(fc.oneof(dateStr, fc.date({ min: new Date('2026-12-01'), max: new Date('2060-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))), 12),
    time: oneOfOr(timeStr, 12),
    message: oneOfOr(fc.string({ minLength: 1, maxLength: 60 }).filter((m) => m.trim() !== ''), 12),
    recurrence: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...RECURRENCES, ...RECURRENCES.map((r) => r.toLowerCase())) }, { weight: 3, arbitrary: fc.constant('CUSTOM') }, { weight: 1, arbitrary: recurrence }),
    rrule: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: rrule }),
    timezone: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...ZONES.slice(0, 10)) }, { weight: 1, arbitrary: zone }),
    destinations: fc.array(
      fc.oneof(
        { weight: 4, arbitrary: fc.record({ type: fc.constant('webhook'), metadata: fc.record({ url: webhookUrl, platform: fc.constantFrom('generic', 'discord', 'slack') }) }) },
        { weight: 1, arbitrary: fc.constant({ type: 'discord_dm', metadata: {} }) },
        { weight: 2, arbitrary: fc.record({ type: fc.constant('discord_channel'), metadata: fc.record({ guild_id: snowflake, channel_id: snowflake }) }) },
        { weight: 1, arbitrary: fc.record({ type: fc.constant('email'), metadata: fc.record({ address: fc.emailAddress() }) }) },
        { weight: 1, arbitrary: destination },
      ),
      { maxLength: 6 },
    ),
  },
  { requiredKeys: ['date', 'time', 'message'] },
);
const reminderFields = fc.oneof(fc.record(reminderModel, { requiredKeys: [] }), plausibleReminder, plausibleReminder) as fc.Arbitrary<Record<string, unknown>>;
/**
 * An edit reaches its handler only with one of A's ids (4 in 10), and a plausible reminder with a
 * few random destinations is mostly refused for one of them: without these, the successful edits
 * numbered 5 to 15 in 800 and the "reaches the handler" check below failed now and then.
 */
const editFields = fc.oneof(reminderFields, plausibleReminder.map((r) => ({ ...r, destinations: [] }))) as fc.Arbitrary<Record<string, unknown>>;

/** Keys that must not reach an object's prototype, plus random ones. */
const extraKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'account_id', 'is_paused', 'email_normalized'), fc.string({ maxLength: 12 }));

/** JSON text of an object given as entries, so `__proto__` stays a literal key. */
function objectText(entries: Array<[string, unknown]>): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v === undefined ? null : v)}`).join(',')}}`;
}

const RAW_BODIES = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}garbage',
  'null',
  '[]',
  '"text"',
  '123',
  'true',
  'NaN',
  '\ufeff{}',
  '\u0000',
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":{"is_paused":true},"date":"2030-07-01","time":"09:00","message":"p"}',
  '{"email":"a@example.com","password":"longenough","__proto__":{"polluted":"yes"}}',
  '{"a":1,"a":2}',
  `${'['.repeat(3000)}${']'.repeat(3000)}`,
  `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
];
const rawText = fc.oneof(fc.constantFrom(...RAW_BODIES), fc.string(), fc.string({ unit: 'binary', maxLength: 200 }));

function bodyOf(fields: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<string | undefined> {
  const structured = fc
    .tuple(fields, fc.array(fc.tuple(extraKey, nasty), { maxLength: 3 }))
    .map(([obj, extra]) => objectText([...Object.entries(obj), ...extra]));
  return fc.oneof(
    { weight: 8, arbitrary: structured },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: rawText },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}
const fieldsOf = (model: Record<string, fc.Arbitrary<unknown>>) => fc.record(model, { requiredKeys: [] }) as fc.Arbitrary<Record<string, unknown>>;

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=xyz',
      'application/xml',
      'application/vnd.api+json',
      'application/jsonx',
      '*/*',
      '',
      'application/json, text/plain',
    ),
  },
);
const auth = fc.oneof(
  { weight: 16, arbitrary: fc.constant<Auth>('A') },
  { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'cookie-no-origin', 'cookie-same-origin', 'bogus') },
);
const destPick: fc.Arbitrary<DestPick> = fc.oneof(
  { weight: 4, arbitrary: fc.nat().map((n) => ({ kind: 'own' as const, n })) },
  { weight: 1, arbitrary: fc.oneof(fc.uuid(), fc.string({ maxLength: 80 }), fc.constantFrom('..', '%2F', 'x'.repeat(65))).map((s) => ({ kind: 'raw' as const, s })) },
);
const idPick: fc.Arbitrary<IdPick> = fc.oneof(
  { weight: 4, arbitrary: fc.nat().map((n) => ({ kind: 'A' as const, n })) },
  { weight: 3, arbitrary: fc.nat().map((n) => ({ kind: 'B' as const, n })) },
  {
    weight: 3,
    arbitrary: fc
      .oneof(fc.uuid(), fc.string({ maxLength: 80 }), fc.constantFrom('..', '.', '%2F', '%00', 'errors', 'preview', 'x'.repeat(65), '__proto__', 'constructor', '1', '-1'))
      .map((s) => ({ kind: 'raw' as const, s })),
  },
);
// Node itself refuses request heads over 16 KiB (431, before Fastify): keep query strings below that.
const MAX_QUERY_VALUE = 4000;
const queryOf = (model: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fieldsOf(model).map((q) =>
        Object.entries(q)
          .map(([k, v]) => `${k}=${enc((typeof v === 'string' ? v : JSON.stringify(v) ?? '').slice(0, MAX_QUERY_VALUE))}`)
          .join('&'),
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((s) => enc(s)) },
    { weight: 1, arbitrary: fc.constantFrom('date=2030-07-01&date=2030-07-02&time=09:00', 'count=1&count=2&date=2030-07-01&time=09:00', '__proto__[x]=1&date=2030-07-01&time=09:00', 'constructor=1') },
  );

// --- the endpoints --------------------------------------------------------------------------------

function bodyRoute(method: string, path: string, model: Record<string, fc.Arbitrary<unknown>> | fc.Arbitrary<Record<string, unknown>>, authArb = auth) {
  const fields = model instanceof fc.Arbitrary ? model : fieldsOf(model);
  return fc.record({
    method: fc.constant(method),
    path: fc.constant(path),
    id: idPick,
    dest: destPick,
    auth: authArb,
    contentType,
    body: bodyOf(fields),
  }) as fc.Arbitrary<Spec>;
}
/** A request that reaches the handler unless its fields are refused: A's own reminder, A's token, plain JSON. */
function wellAddressed(method: string, path: string, fields: fc.Arbitrary<Record<string, unknown>>) {
  return fc.record({
    method: fc.constant(method),
    path: fc.constant(path),
    id: fc.nat().map((n) => ({ kind: 'A' as const, n })),
    dest: destPick,
    auth: fc.constant<Auth>('A'),
    contentType: fc.constant('application/json'),
    body: fields.map((obj) => objectText(Object.entries(obj))),
  }) as fc.Arbitrary<Spec>;
}
function queryRoute(method: string, path: string, model: Record<string, fc.Arbitrary<unknown>>, authArb = auth) {
  return fc.record({ method: fc.constant(method), path: fc.constant(path), id: idPick, auth: authArb, query: queryOf(model) }) as fc.Arbitrary<Spec>;
}

// Never A's own session on logout, and never DELETE /api/account: the run needs A alive.
const notA = fc.constantFrom<Auth>('none', 'bogus', 'cookie-no-origin', 'throwaway');
const accountModel = {
  account_id: oneOfOr(fc.uuid()),
  email: oneOfOr(fc.emailAddress()),
  username: oneOfOr(fc.string({ maxLength: 70 })),
  password: oneOfOr(fc.string({ maxLength: 20 })),
  timezone: zone,
};
/** Files for POST /api/reminders/import: plausible JSON, CSV and ICS made of fuzzed fields, and noise. */
const csvCell = (v: unknown) => `"${String(typeof v === 'string' ? v : JSON.stringify(v) ?? '').replaceAll('"', '""')}"`;
const importContent = fc.oneof(
  fc.array(reminderFields, { maxLength: 3 }).map((list) => JSON.stringify({ reminders: list.map((r) => ({ ...r, exceptions: [], paused: false })) })),
  fc.array(reminderFields, { maxLength: 3 }).map((list) => ['message,date,time,timezone,recurrence,rrule,paused,destinations', ...list.map((r) => [r.message, r.date, r.time, r.timezone, r.recurrence, r.rrule, 'false', JSON.stringify(r.destinations ?? [])].map(csvCell).join(','))].join('\r\n')),
  fc.tuple(oneOfOr(fc.string({ maxLength: 40 })), dateStr, oneOfOr(rrule), zone).map(
    ([summary, date, rule, tz]) =>
      `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nSUMMARY:${asText(summary)}\r\nDTSTART;TZID=${asText(tz)}:${asText(date).replaceAll('-', '')}T090000\r\nRRULE:${asText(rule)}\r\nEXDATE:${asText(date).replaceAll('-', '')}T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`,
  ),
  fc.constantFrom('', '[]', '{}', 'BEGIN:VCALENDAR', 'BEGIN:VCALENDAR\r\nEND:VEVENT', 'message\r\n"unterminated', '[1,2,3]', '{"reminders":[null,1,"x",[]]}'),
  fc.string({ maxLength: 300 }),
);
const fileFormat = oneOfOr(fc.constantFrom('json', 'csv', 'ics'), 6);
const feedFile = fc.oneof(fc.string({ maxLength: 60 }), fc.base64String({ minLength: 44, maxLength: 44 }).map((t) => `${t.slice(0, 43).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', 'A')}.ics`), fc.constantFrom('x.ics', '.ics', '..', '%2e%2e'));

const actionToken = fc.oneof(fc.string({ maxLength: 120 }), fc.base64String({ minLength: 56, maxLength: 56 }).map((p) => `${p.replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', 'A')}.AAAAAAAAAAAAAAAAAAAAAA`), fc.constantFrom('.', '..', '%2e%2e'));

/**
 * Each run sends about 6,000 requests on SQLite (the runs listed below, at 0.6) and half as many on
 * PostgreSQL, whose addition is its own refusals (types, ranges, NUL, constraints), which the
 * edge-value test below covers in full. Seeds differ at every run, so coverage adds up across runs;
 * the full lists cost a minute of CPU per run for little more.
 */
const RUNS_SCALE = process.env.CHIME_TEST_DB === 'postgres' ? 0.3 : 0.6;
// Routes whose generators must reach the handler, not only the validator: each
// needs more than 5 successes, so none is cut below 120 runs by RUNS_SCALE (at 36
// runs a route that succeeds one time in seven misses that about one run in three).
const MUST_SUCCEED = new Set([
  'POST /api/reminders',
  'PUT /api/reminders/:id',
  'GET /api/reminders/:id',
  'POST /api/reminders/:id/snooze',
  'GET /api/reminders/:id/occurrences',
  'GET /api/reminders/preview',
  'PUT /api/account/timezone',
  'PUT /api/account/language',
  'PUT /api/account/identity/app/username',
  'PUT /api/account/identity/app/email',
]);
const runsFor = (name: string, runs: number) => Math.max(Math.min(runs, MUST_SUCCEED.has(name) ? 120 : 30), Math.round(runs * RUNS_SCALE));

/** A WebAuthn answer's shape (what @simplewebauthn/browser sends), its parts random base64url or worse. */
const base64url = fc.oneof(
  fc.base64String({ maxLength: 80 }).map((b) => b.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')),
  fc.string({ maxLength: 40 }),
);
const webauthnAnswer = fc.record(
  {
    id: oneOfOr(base64url),
    rawId: oneOfOr(base64url),
    type: oneOfOr(fc.constantFrom('public-key', 'password')),
    response: oneOfOr(
      fc.record(
        { clientDataJSON: oneOfOr(base64url), attestationObject: oneOfOr(base64url), authenticatorData: oneOfOr(base64url), signature: oneOfOr(base64url), userHandle: oneOfOr(base64url) },
        { requiredKeys: [] },
      ),
    ),
    clientExtensionResults: oneOfOr(fc.constant({})),
  },
  { requiredKeys: [] },
);

const ENDPOINTS: Array<[string, fc.Arbitrary<Spec>, number]> = [
  ['POST /api/auth/register', bodyRoute('POST', '/api/auth/register', { email: oneOfOr(fc.oneof(fc.emailAddress(), fc.constantFrom('a@b', 'x@example.com'))), username: oneOfOr(fc.string({ maxLength: 70 })), password: oneOfOr(fc.string({ maxLength: 20 })), timezone: zone }), 150],
  ['POST /api/auth/login', bodyRoute('POST', '/api/auth/login', { email: oneOfOr(fc.emailAddress()), password: oneOfOr(fc.string({ maxLength: 20 })), remember_me: oneOfOr(fc.boolean()) }), 150],
  ['POST /api/auth/logout', bodyRoute('POST', '/api/auth/logout', {}, notA), 80],
  ['GET /api/account', queryRoute('GET', '/api/account', { x: nasty }), 40],
  ['GET /api/account/capabilities', queryRoute('GET', '/api/account/capabilities', { x: nasty }), 40],
  ['PUT /api/account/timezone', bodyRoute('PUT', '/api/account/timezone', { timezone: fc.oneof(zone, fc.record({ iana_location: zone, name: zone }, { requiredKeys: [] })) }), 300],
  [
    'PUT /api/account/language',
    fc.oneof(
      { weight: 3, arbitrary: bodyRoute('PUT', '/api/account/language', { language: oneOfOr(fc.constantFrom('en', 'fr', 'es', 'de', 'FR', 'es-ES', '')) }) },
      // One in four is well addressed with a language Chime speaks: fully fuzzed, about 1 in 25
      // succeeded, and 120 runs once gave 4 successes where more than 5 are required.
      { weight: 1, arbitrary: wellAddressed('PUT', '/api/account/language', fc.record({ language: fc.constantFrom('en', 'fr', 'es') })) },
    ),
    120,
  ],
  ['PUT /api/account/identity/app/username', bodyRoute('PUT', '/api/account/identity/app/username', { username: oneOfOr(fc.string({ maxLength: 70 })) }), 200],
  ['PUT /api/account/identity/app/email', bodyRoute('PUT', '/api/account/identity/app/email', { email: oneOfOr(fc.emailAddress()) }), 200],
  ['POST /api/account/identity/app/change-password', bodyRoute('POST', '/api/account/identity/app/change-password', { current_password: oneOfOr(fc.string({ maxLength: 20 })), new_password: oneOfOr(fc.string({ maxLength: 20 })) }), 120],
  ['GET /api/reminders', queryRoute('GET', '/api/reminders', { x: nasty }), 40],
  ['POST /api/reminders', bodyRoute('POST', '/api/reminders', reminderFields), 1200],
  [
    'PUT /api/reminders/:id',
    fc.oneof(
      { weight: 3, arbitrary: bodyRoute('PUT', '/api/reminders/{id}', editFields) },
      // One edit in four is well addressed (A's own id, A's token, a JSON body with no stray keys):
      // even so, fuzzed fields were refused often enough that 240 runs on PostgreSQL once gave only
      // 5 successful edits.
      { weight: 1, arbitrary: wellAddressed('PUT', '/api/reminders/{id}', plausibleReminder.map((r) => ({ ...r, destinations: [] }))) },
    ),
    800,
  ],
  ['GET /api/reminders/:id', queryRoute('GET', '/api/reminders/{id}', { x: nasty }), 200],
  ['DELETE /api/reminders/:id', queryRoute('DELETE', '/api/reminders/{id}', {}), 150],
  ['POST /api/reminders/:id/pause', bodyRoute('POST', '/api/reminders/{id}/pause', { is_paused: nasty }), 150],
  ['POST /api/reminders/:id/resume', bodyRoute('POST', '/api/reminders/{id}/resume', { is_paused: nasty }), 150],
  ['POST /api/reminders/:id/duplicate', bodyRoute('POST', '/api/reminders/{id}/duplicate', { id: nasty }), 150],
  [
    'POST /api/reminders/:id/snooze',
    bodyRoute(
      'POST',
      '/api/reminders/{id}/snooze',
      fc.oneof(
        fieldsOf({ minutes: oneOfOr(fc.integer({ min: -10, max: 600_000 })), until: oneOfOr(isoStr) }),
        fc.oneof(
          fc.record({ minutes: fc.integer({ min: 1, max: 525_600 }) }),
          fc.record({ until: fc.date({ min: new Date('2027-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }).map((d) => d.toISOString()) }),
        ),
      ),
    ),
    600,
  ],
  ['POST /api/reminders/:id/skip', bodyRoute('POST', '/api/reminders/{id}/skip', { occurrence: oneOfOr(isoStr) }), 300],
  ['DELETE /api/reminders/:id/skip/:occurrence', fc.oneof(isoStr, nasty.map(asText)).chain((o) => queryRoute('DELETE', `/api/reminders/{id}/skip/${enc(o)}`, {})), 200],
  ['GET /api/reminders/:id/occurrences', queryRoute('GET', '/api/reminders/{id}/occurrences', { count: oneOfOr(fc.integer({ min: -5, max: 1500 }).map(String)), from: oneOfOr(isoStr), to: oneOfOr(isoStr) }), 600],
  [
    'GET /api/reminders/preview',
    fc.oneof(
      { weight: 3, arbitrary: queryRoute('GET', '/api/reminders/preview', { date: dateStr, time: timeStr, recurrence, rrule: oneOfOr(rrule), timezone: zone, count: oneOfOr(fc.integer({ min: -5, max: 1500 }).map(String)) }) },
      // One preview in four asks a plausible question as A: fully fuzzed queries succeed so rarely
      // (3 of 240 on PostgreSQL once) that the handler itself would go untested.
      {
        weight: 1,
        arbitrary: fc.record({
          method: fc.constant('GET'),
          path: fc.constant('/api/reminders/preview'),
          id: idPick,
          auth: fc.constant<Auth>('A'),
          query: fc
            .record({
              date: fc.date({ min: new Date('2026-12-01'), max: new Date('2060-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
              time: fc.constantFrom('00:00', '09:30', '23:59'),
              recurrence: fc.constantFrom(...RECURRENCES),
              timezone: fc.constantFrom(...ZONES.slice(0, 10)),
              count: fc.integer({ min: 1, max: 50 }),
            })
            .map((q) => Object.entries(q).map(([k, v]) => `${k}=${enc(String(v))}`).join('&')),
        }) as fc.Arbitrary<Spec>,
      },
    ),
    800,
  ],
  [
    'GET /api/reminders/schedule-from-text',
    queryRoute('GET', '/api/reminders/schedule-from-text', {
      text: oneOfOr(fc.oneof(fc.string({ maxLength: 220 }), fc.constantFrom('every monday at 9', 'tomorrow 18:30', 'demain à 18h30', 'el primer lunes de cada mes a las 8', 'every 0 days', 'in 99999999 years', 'le 31 février', 'every 2 weeks on monday and friday 10 times'))),
    }),
    150,
  ],
  ['GET /api/reminders/errors', queryRoute('GET', '/api/reminders/errors', { x: nasty }), 40],
  ['GET /api/reminders/:id/deliveries', queryRoute('GET', '/api/reminders/{id}/deliveries', { limit: oneOfOr(fc.integer({ min: -5, max: 300 }).map(String)), before: oneOfOr(fc.string({ maxLength: 80 })) }), 150],
  [
    'POST /api/reminders/:id/deliveries/:deliveryId/resend',
    fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 70 })).chain((d) => bodyRoute('POST', `/api/reminders/{id}/deliveries/${enc(d)}/resend`, { x: nasty })),
    80,
  ],
  ['POST /api/reminders/errors/:deliveryId/dismiss', fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 70 })).chain((d) => bodyRoute('POST', `/api/reminders/errors/${enc(d)}/dismiss`, { x: nasty })), 60],
  ['POST /api/reminders/:id/destinations/:destinationId/enable', bodyRoute('POST', '/api/reminders/{id}/destinations/{dest}/enable', { x: nasty }), 60],
  [
    'POST /api/destinations/check',
    bodyRoute('POST', '/api/destinations/check', {
      type: oneOfOr(fc.constantFrom('webhook', 'discord_dm', 'discord_channel', 'email', 'pigeon')),
      metadata: oneOfOr(fc.record({ url: oneOfOr(testUrl, 6), guild_id: oneOfOr(snowflake), channel_id: oneOfOr(snowflake), address: oneOfOr(fc.emailAddress()) }, { requiredKeys: [] })),
      // An edited destination: its reminder and its id (unknown ones are 404s).
      reminder_id: oneOfOr(fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 70 }))),
      id: oneOfOr(fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 70 }))),
    }),
    150,
  ],
  // Email (the fuzz server has a real SMTP server: the mails leave for real).
  ['POST /api/auth/password-reset', bodyRoute('POST', '/api/auth/password-reset', { email: oneOfOr(fc.oneof(fc.emailAddress(), fc.constantFrom('a@b', 'x@example.com', ' X@Example.com '))) }), 60],
  [
    'POST /api/auth/password-reset/confirm',
    bodyRoute('POST', '/api/auth/password-reset/confirm', { token: oneOfOr(fc.oneof(fc.base64String({ maxLength: 44 }), fc.string({ maxLength: 600 }))), password: oneOfOr(fc.string({ maxLength: 20 })) }),
    60,
  ],
  ['POST /api/email/confirm', bodyRoute('POST', '/api/email/confirm', { token: oneOfOr(fc.oneof(fc.base64String({ maxLength: 44 }), fc.string({ maxLength: 600 }))) }), 60],
  ['GET /api/email/addresses', queryRoute('GET', '/api/email/addresses', { x: nasty }), 30],
  ['POST /api/email/addresses/confirmation', bodyRoute('POST', '/api/email/addresses/confirmation', { address: oneOfOr(fc.oneof(fc.emailAddress(), fc.string({ maxLength: 400 }))) }), 60],
  ['GET /api/account/calendar-feed', queryRoute('GET', '/api/account/calendar-feed', { x: nasty }), 30],
  ['POST /api/account/calendar-feed/rotate', bodyRoute('POST', '/api/account/calendar-feed/rotate', { x: nasty }), 30],
  ['DELETE /api/account/calendar-feed', queryRoute('DELETE', '/api/account/calendar-feed', { x: nasty }), 20],
  ['GET /feeds/:file', feedFile.chain((f) => queryRoute('GET', `/feeds/${enc(f)}`, { x: nasty }, fc.constant<Auth>('none'))), 60],
  // Action links (docs/notifications.md): public, the signed token is the credential.
  ['GET /a/:token', actionToken.chain((t) => queryRoute('GET', `/a/${enc(t)}`, { x: nasty }, fc.constant<Auth>('none'))), 30],
  ['POST /a/:token', actionToken.chain((t) => bodyRoute('POST', `/a/${enc(t)}`, { x: nasty }, fc.constant<Auth>('none'))), 30],
  // Telegram (docs/notifications.md "Telegram"): the account's chats and codes, and the webhook (public, its secret header is the credential).
  ['POST /api/telegram/link-codes', bodyRoute('POST', '/api/telegram/link-codes', { x: nasty }), 20],
  ['GET /api/telegram/chats', queryRoute('GET', '/api/telegram/chats', { x: nasty }), 20],
  ['DELETE /api/telegram/chats/:id', fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 70 })).chain((id) => queryRoute('DELETE', `/api/telegram/chats/${enc(id)}`, {})), 20],
  [
    'POST /telegram/webhook',
    bodyRoute(
      'POST',
      '/telegram/webhook',
      {
        update_id: oneOfOr(fc.integer()),
        message: oneOfOr(fc.record({ text: fc.oneof(fc.constant('/start abc'), fc.string({ maxLength: 80 })), chat: fc.record({ id: fc.oneof(fc.integer(), fc.double()), type: fc.constantFrom('private', 'group', 'channel', '') }) })),
        callback_query: oneOfOr(fc.record({ id: fc.string({ maxLength: 20 }), data: fc.string({ maxLength: 80 }) })),
      },
      fc.constant<Auth>('none'),
    ),
    40,
  ],
  ['GET /api/reminders/export', queryRoute('GET', '/api/reminders/export', { format: fileFormat }), 40],
  ['POST /api/reminders/import', bodyRoute('POST', '/api/reminders/import', { format: fileFormat, content: oneOfOr(importContent, 8), dry_run: oneOfOr(fc.boolean()), mode: oneOfOr(fc.constantFrom('all_or_nothing', 'valid_only')) }), 300],
  ['DELETE /api/account', queryRoute('DELETE', '/api/account', { x: nasty }, notA), 30],
  // Personal access tokens (docs/api.md).
  ['GET /api/tokens', queryRoute('GET', '/api/tokens', { x: nasty }), 20],
  [
    'POST /api/tokens',
    bodyRoute('POST', '/api/tokens', {
      name: oneOfOr(fc.string({ maxLength: 120 })),
      scopes: oneOfOr(fc.array(fc.constantFrom('reminders:read', 'reminders:write', 'account', ''), { maxLength: 4 })),
      expires_in_days: oneOfOr(fc.oneof(fc.integer({ min: -5, max: 400 }), fc.double())),
    }),
    60,
  ],
  ['DELETE /api/tokens/:id', fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 70 })).chain((id) => queryRoute('DELETE', `/api/tokens/${enc(id)}`, {})), 30],
  // Servers: no Discord on this server, so every guild is unknown; the ids and bodies still must not break anything.
  ['GET /api/servers', queryRoute('GET', '/api/servers', { x: nasty }), 20],
  ...(
    [
      ['GET', 'reminders', { limit: oneOfOr(fc.integer({ min: -5, max: 300 }).map(String)), before: oneOfOr(fc.string({ maxLength: 80 })) }],
      ['GET', 'audit', { limit: oneOfOr(fc.integer({ min: -5, max: 300 }).map(String)), before: oneOfOr(fc.string({ maxLength: 80 })) }],
      ['GET', 'settings', { x: nasty }],
      ['GET', 'my-reminders', { limit: oneOfOr(fc.integer({ min: -5, max: 300 }).map(String)), before: oneOfOr(fc.string({ maxLength: 80 })) }],
      ['GET', 'rules', { x: nasty }],
    ] as const
  ).map(([method, leaf, query]): [string, fc.Arbitrary<Spec>, number] => [`${method} /api/servers/:guildId/${leaf}`, guildId.chain((g) => queryRoute(method, `/api/servers/${enc(g)}/${leaf}`, query)), 30]),
  ['PUT /api/servers/:guildId/settings', guildId.chain((g) => bodyRoute('PUT', `/api/servers/${enc(g)}/settings`, { manager_role_id: nasty, default_timezone: oneOfOr(zone), who_can_create: nasty, role_mentions: nasty, everyone_mention: nasty, allowed_channel_ids: nasty, max_reminders: nasty, former_members: nasty })), 40],
  ...(['pause', 'resume', 'take-over'] as const).map((action): [string, fc.Arbitrary<Spec>, number] => [`POST /api/servers/:guildId/reminders/:id/${action}`, guildId.chain((g) => bodyRoute('POST', `/api/servers/${enc(g)}/reminders/{id}/${action}`, { x: nasty })), 20]),
  ['DELETE /api/servers/:guildId/reminders/:id', guildId.chain((g) => queryRoute('DELETE', `/api/servers/${enc(g)}/reminders/{id}`, {})), 20],
  // Sessions (docs/security.md): never A's other sessions signed out (notA), and made-up ids only.
  ['GET /api/sessions', queryRoute('GET', '/api/sessions', { x: nasty }), 20],
  ['DELETE /api/sessions/:id', fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 70 })).chain((id) => queryRoute('DELETE', `/api/sessions/${enc(id)}`, {})), 30],
  ['POST /api/sessions/sign-out-others', bodyRoute('POST', '/api/sessions/sign-out-others', { x: nasty }, notA), 20],
  ['GET /api/account/two-factor', queryRoute('GET', '/api/account/two-factor', { x: nasty }), 20],
  ['POST /api/account/two-factor/setup', bodyRoute('POST', '/api/account/two-factor/setup', { x: nasty }), 20],
  ['POST /api/account/two-factor/enable', bodyRoute('POST', '/api/account/two-factor/enable', { code: oneOfOr(fc.oneof(fc.stringMatching(/^\d{6}$/), fc.string({ maxLength: 50 }))) }), 40],
  ['POST /api/account/two-factor/disable', bodyRoute('POST', '/api/account/two-factor/disable', { code: oneOfOr(fc.oneof(fc.stringMatching(/^\d{6}$/), fc.string({ maxLength: 50 }))) }), 40],
  ['POST /api/auth/two-factor', bodyRoute('POST', '/api/auth/two-factor', { ticket: oneOfOr(fc.string({ maxLength: 120 })), code: oneOfOr(fc.string({ maxLength: 50 })) }), 40],
  // Passkeys (docs/security.md): WebAuthn answers with base64url parts that are random, cut or of the wrong kind.
  ['GET /api/account/passkeys', queryRoute('GET', '/api/account/passkeys', { x: nasty }), 20],
  ['POST /api/account/passkeys/registration-options', bodyRoute('POST', '/api/account/passkeys/registration-options', { x: nasty }), 20],
  ['POST /api/account/passkeys', bodyRoute('POST', '/api/account/passkeys', { ticket: oneOfOr(fc.string({ maxLength: 120 })), name: oneOfOr(fc.string({ maxLength: 80 })), response: oneOfOr(webauthnAnswer) }), 40],
  ['PUT /api/account/passkeys/:id', fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 70 })).chain((id) => bodyRoute('PUT', `/api/account/passkeys/${enc(id)}`, { name: oneOfOr(fc.string({ maxLength: 80 })) })), 30],
  ['DELETE /api/account/passkeys/:id', fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 70 })).chain((id) => queryRoute('DELETE', `/api/account/passkeys/${enc(id)}`, {})), 30],
  ['POST /api/auth/passkey/options', bodyRoute('POST', '/api/auth/passkey/options', { x: nasty }), 20],
  ['POST /api/auth/passkey', bodyRoute('POST', '/api/auth/passkey', { ticket: oneOfOr(fc.string({ maxLength: 120 })), response: oneOfOr(webauthnAnswer), remember_me: oneOfOr(fc.boolean()) }), 40],
  // The generated API reference and its reader's files.
  ['GET /api/openapi.json', queryRoute('GET', '/api/openapi.json', { x: nasty }), 10],
  ['GET /api/docs', queryRoute('GET', '/api/docs', { x: nasty }), 10],
  ['HEAD /api/docs/', queryRoute('HEAD', '/api/docs/', { x: nasty }), 10],
  ['GET /api/docs/json', queryRoute('GET', '/api/docs/json', { x: nasty }), 10],
  ['GET /api/docs/yaml', queryRoute('GET', '/api/docs/yaml', { x: nasty }), 10],
  ['GET /api/docs/static/index.html', queryRoute('GET', '/api/docs/static/index.html', { x: nasty }), 10],
  ['GET /api/docs/static/swagger-initializer.js', queryRoute('GET', '/api/docs/static/swagger-initializer.js', { x: nasty }), 10],
  [
    'GET /api/docs/static/*',
    fc.oneof(fc.constantFrom('swagger-ui.css', 'index.css', 'nope.js', '..%2F..%2Fpackage.json', '%2e%2e/%2e%2e/package.json'), fc.string({ maxLength: 40 }).map(enc)).chain((f) => queryRoute('GET', `/api/docs/static/${f}`, {})),
    20,
  ],
  ['GET /healthz', queryRoute('GET', '/healthz', { x: nasty }), 20],
  ['GET /api/config', queryRoute('GET', '/api/config', { x: nasty }), 20],
  ['GET /metrics', queryRoute('GET', '/metrics', { x: nasty }), 20],
  [
    'POST /api/webhooks/test',
    bodyRoute('POST', '/api/webhooks/test', {
      url: oneOfOr(testUrl, 6),
      platform: oneOfOr(fc.constantFrom('generic', 'discord', 'slack', 'teams')),
      username: oneOfOr(fc.string({ maxLength: 90 })),
      body_template: oneOfOr(fc.oneof(fc.constantFrom('{"t": "{{message}}"}', '{{message}}', '{"t": {{message}}}', '{{nope}}'), fc.string({ maxLength: 200 }))),
      body_format: oneOfOr(fc.constantFrom('json', 'text', 'xml', '')),
      headers: oneOfOr(fc.dictionary(fc.oneof(fc.constantFrom('Authorization', 'Host', 'X-A', 'bad name'), fc.string({ maxLength: 20 })), fc.oneof(fc.string({ maxLength: 40 }), nasty), { maxKeys: 12 })),
    }),
    60,
  ],
  ['POST /api/reminders/:id/destinations/:destinationId/test', bodyRoute('POST', '/api/reminders/{id}/destinations/{dest}/test', { x: nasty }), 60],
  ['POST /api/reminders/:id/destinations/:destinationId/rotate-secret', bodyRoute('POST', '/api/reminders/{id}/destinations/{dest}/rotate-secret', { x: nasty }), 80],
  ['POST /api/discord/guilds', bodyRoute('POST', '/api/discord/guilds', { account_id: oneOfOr(fc.uuid()) }), 30],
  ['POST /api/discord/guilds/channels', bodyRoute('POST', '/api/discord/guilds/channels', { account_id: oneOfOr(fc.uuid()), guild_id: oneOfOr(snowflake) }), 30],
  [
    'POST /api/discord/guilds/threads/archived',
    bodyRoute('POST', '/api/discord/guilds/threads/archived', { account_id: oneOfOr(fc.uuid()), guild_id: oneOfOr(snowflake), channel_id: oneOfOr(snowflake), cursor: oneOfOr(fc.oneof(fc.base64String({ maxLength: 80 }), fc.string({ maxLength: 60 }))) }),
    30,
  ],
  ['POST /api/discord/guilds/roles', bodyRoute('POST', '/api/discord/guilds/roles', { account_id: oneOfOr(fc.uuid()), guild_id: oneOfOr(snowflake) }), 30],
  ['GET /api/discord/invite-url', queryRoute('GET', '/api/discord/invite-url', { guild_id: oneOfOr(snowflake) }), 30],
  ['GET /api/auth/discord/authorize-url', queryRoute('GET', '/api/auth/discord/authorize-url', { mode: oneOfOr(fc.constantFrom('login', 'link', 'setup')) }), 30],
  ['POST /api/auth/discord/callback', bodyRoute('POST', '/api/auth/discord/callback', { code: oneOfOr(fc.string({ maxLength: 40 })), state: oneOfOr(fc.string({ maxLength: 40 })) }), 30],
  ['POST /api/auth/discord/setup', bodyRoute('POST', '/api/auth/discord/setup', accountModel), 30],
  [
    'random method and path',
    fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
      path: fc.oneof(
        fc.constantFrom('/api', '/api/', '//api//reminders', '/api/reminders/', '/api/reminders/{id}/x/y', '/api/reminders/%2e%2e/reminders', '/api/account/%2e%2e/account/capabilities', '/api/account/identity/discord/username', '/api/auth', '/api/auth/register/', '/API/REMINDERS', '/api/reminders?x=1', '/api/reminders/%E0%A4%A', '/api/reminders/%', '/api/reminders/%ZZ/pause', '/api/reminders/preview?date=%'),
        fc.string({ maxLength: 40 }).map((s) => `/api/${enc(s)}`),
        fc.string({ maxLength: 40 }).map((s) => `/api/reminders/{id}/${enc(s)}`),
        fc.constant(`/api/${'x'.repeat(4000)}`),
      ),
      id: idPick,
      auth,
      contentType,
      body: bodyOf(fieldsOf({ a: nasty })),
    }) as fc.Arbitrary<Spec>,
    400,
  ],
];

// --- the run --------------------------------------------------------------------------------------

/** `GET /api/reminders/:id` as the ENDPOINTS table names it. */
const routeName = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

describe('fuzzing every endpoint', () => {
  let server: TestServer;
  let sink: WebhookSink;
  let smtp: SmtpSink;
  let a: User;
  let b: User;
  const aIds: string[] = [];
  const bIds: string[] = [];
  const A_KEPT = 5;
  const stats = new Map<string, Map<number, number>>();
  let requests = 0;

  async function snapshotB() {
    const db = server.app.db;
    const list = await sendRequest(`${server.url}/api/reminders`, { method: 'GET', headers: { authorization: `Bearer ${b.token}` } });
    const account = await sendRequest(`${server.url}/api/account`, { method: 'GET', headers: { authorization: `Bearer ${b.token}` } });
    return {
      listStatus: list.status,
      list: list.text,
      accountStatus: account.status,
      account: account.text,
      accounts: await db.selectFrom('accounts').selectAll().where('id', '=', b.id).execute(),
      identities: await db.selectFrom('identities').selectAll().where('account_id', '=', b.id).execute(),
      reminders: await db.selectFrom('reminders').selectAll().where('account_id', '=', b.id).orderBy('id').execute(),
      destinations: await db
        .selectFrom('destinations')
        .selectAll()
        .where('reminder_id', 'in', bIds)
        .orderBy('id')
        .execute(),
    };
  }

  beforeAll(async () => {
    sink = await startWebhookSink();
    smtp = await startSmtpSink();
    server = await startTestServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'chime@example.com' }, overrides: { schedulerEnabled: false } });
    a = await signUp(server.url, { timezone: 'Europe/Paris' });
    b = await signUp(server.url, { timezone: 'America/New_York' });
    // Both have a Discord identity, so Discord destinations go through the deeper checks.
    for (const [user, discordId] of [
      [a, '300000000000000001'],
      [b, '300000000000000002'],
    ] as const) {
      const now = new Date().toISOString();
      await server.app.db
        .insertInto('identities')
        .values({ id: randomUUID(), account_id: user.id, provider: 'discord', external_id: discordId, username: 'd', password_hash: null, access_token: null, refresh_token: null, token_expires_at: null, scope: null, dm_channel_id: null, created_at: now, updated_at: now })
        .execute();
    }
    const sample = [
      { date: '2030-07-01', time: '09:00', message: 'once', recurrence: 'ONCE', destinations: [{ type: 'webhook', metadata: { url: 'https://hooks.example.com/1' } }] },
      { date: '2020-01-31', time: '23:30', message: 'monthly', recurrence: 'MONTHLY', destinations: [{ type: 'discord_dm', metadata: {} }] },
      { date: '2026-03-29', time: '02:30', message: 'hourly', recurrence: 'HOURLY', timezone: 'Europe/Paris' },
      { date: '2024-02-29', time: '12:00', message: 'yearly', recurrence: 'YEARLY', destinations: [{ type: 'discord_channel', metadata: { guild_id: '111111111111111111', channel_id: '222222222222222222' } }] },
      { date: '2030-01-05', time: '08:00', message: 'weekend', recurrence: 'WEEKEND' },
    ];
    for (const [user, ids] of [
      [a, aIds],
      [b, bIds],
    ] as const) {
      for (const body of sample) {
        const res = await user.api.post('/api/reminders', body);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        ids.push(res.body.id);
      }
      await user.api.post(`/api/reminders/${ids[4]}/pause`);
      await user.api.post(`/api/reminders/${ids[0]}/snooze`, { minutes: 30 });
    }
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
    await smtp?.close();
  });

  /** Every route the app serves, HEAD twins of GET routes aside (Fastify adds those itself). */
  function appRoutes(): string[] {
    const all = server.app.registeredRoutes();
    const gets = new Set(all.filter((r) => r.method === 'GET').map((r) => r.url));
    return [...new Set(all.filter((r) => !(r.method === 'HEAD' && gets.has(r.url))).map(routeName))].sort();
  }

  /**
   * A's five first reminders are never deleted, so the routes after DELETE still find reminders of
   * A's to reach their handlers with; a delete of A's picks among the ones made since.
   */
  function resolveId(pick: IdPick | undefined, deleting: boolean): string {
    if (!pick) return randomUUID();
    if (pick.kind === 'raw') return enc(pick.s);
    const pool = pick.kind === 'A' ? (deleting ? aIds.slice(A_KEPT) : aIds) : bIds;
    return pool.length ? pool[pick.n % pool.length]! : randomUUID();
  }

  async function resolveDest(reminderId: string, pick: DestPick | undefined): Promise<string> {
    if (!pick) return randomUUID();
    if (pick.kind === 'raw') return enc(pick.s);
    const rows = await server.app.db.selectFrom('destinations').select('id').where('reminder_id', '=', reminderId).orderBy('id').execute();
    return rows.length ? rows[pick.n % rows.length]!.id : randomUUID();
  }

  async function headersFor(spec: Spec): Promise<Record<string, string>> {
    const headers: Record<string, string> = {};
    if (spec.auth === 'A') headers.authorization = `Bearer ${a.token}`;
    if (spec.auth === 'throwaway') headers.authorization = `Bearer ${(await signUp(server.url)).token}`;
    if (spec.auth === 'bogus') headers.authorization = `Bearer ${randomUUID()}${randomUUID()}`;
    if (spec.auth === 'cookie-no-origin') headers.cookie = `chime_session=${a.token}`;
    if (spec.auth === 'cookie-same-origin') {
      headers.cookie = `chime_session=${a.token}`;
      headers.origin = server.url;
    }
    if (spec.contentType !== undefined && spec.body !== undefined) headers['content-type'] = spec.contentType;
    return headers;
  }

  async function send(name: string, spec: Spec): Promise<void> {
    const reminderId = resolveId(spec.id, spec.method === 'DELETE' && spec.path === '/api/reminders/{id}');
    let path = spec.path.replace('{id}', reminderId);
    if (path.includes('{dest}')) path = path.replace('{dest}', await resolveDest(reminderId, spec.dest));
    const url = `${server.url}${path}${spec.query ? `${path.includes('?') ? '&' : '?'}${spec.query}` : ''}`;
    // The URL parser resolves dot segments (`%2e%2e` included): guard on the path actually sent.
    const sent = new URL(url).pathname.replace(/\/+$/, '');
    if (!['none', 'bogus', 'throwaway'].includes(spec.auth) && ((spec.method === 'DELETE' && /^\/api\/account$/i.test(sent)) || /^\/api\/auth\/logout$/i.test(sent))) return;
    const withBody = spec.body !== undefined && spec.method !== 'GET' && spec.method !== 'HEAD';
    const body = withBody ? spec.body!.replaceAll('{sink}', sink.url) : undefined;
    const res = await sendRequest(url, { method: spec.method, headers: await headersFor(spec), body });
    const text = res.text;
    requests += 1;
    const byStatus = stats.get(name) ?? new Map<number, number>();
    byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
    stats.set(name, byStatus);
    const where = `${spec.method} ${url.slice(0, 200)} [${spec.auth}] ${spec.contentType ?? ''} body=${(spec.body ?? '').slice(0, 300)}`;
    // Without Discord settings the Discord routes answer the documented 503 DISCORD_NOT_CONFIGURED.
    const discordOff = res.status === 503 && /"code":"DISCORD_NOT_CONFIGURED"/.test(text);
    if (res.status >= 500 && !discordOff) throw new Error(`${res.status} for ${where}\n${text.slice(0, 500)}`);
    if (res.status >= 400 && spec.method !== 'HEAD') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`non-JSON ${res.status} for ${where}: ${text.slice(0, 200)}`);
      }
      const err = parsed as { error?: unknown; code?: unknown };
      if (typeof err.error !== 'string' || !err.error || typeof err.code !== 'string' || !err.code) {
        throw new Error(`bad error shape ${res.status} for ${where}: ${text.slice(0, 200)}`);
      }
    }
    // A's deleted reminders leave the pool, so later routes' picks of A's ids find a reminder.
    if (spec.method === 'DELETE' && res.status < 300 && aIds.includes(reminderId) && new RegExp(`^/api/reminders/${reminderId}$`).test(sent)) {
      aIds.splice(aIds.indexOf(reminderId), 1);
    }
    if (res.status === 201 && spec.auth !== 'none' && /^\/api\/reminders(\/[^/]+\/duplicate)?$/.test(path)) {
      const created = JSON.parse(text) as { id: string; account_id: string };
      if (created.account_id !== a.id) throw new Error(`created a reminder for another account: ${text.slice(0, 200)}`);
      aIds.push(created.id);
    }
  }

  it('every route of the app has a generator (routes are read from the app, not listed by hand)', () => {
    const routes = appRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const covered = new Set(ENDPOINTS.map(([name]) => name));
    expect(routes.filter((r) => !covered.has(r)), 'routes with no fuzz generator in ENDPOINTS').toEqual([]);
    // And no generator for a route that does not exist (a renamed route would go unfuzzed).
    const known = new Set(routes);
    expect(ENDPOINTS.map(([name]) => name).filter((n) => n !== 'random method and path' && !known.has(n))).toEqual([]);
  });

  // The endpoints in eight parts, each its own test: the same requests, but no one test holds a core
  // for the whole run, so a loaded machine slows each part without bringing it near its limit. The
  // last test checks what the whole run must have done and left.
  const PARTS = 8;
  const timings: string[] = [];
  let before: Awaited<ReturnType<typeof snapshotB>> | undefined;
  let started: number | undefined;
  let partsRun = 0;
  // Cut where the runs add up to an eighth each, so the parts take about the same time.
  const totalRuns = ENDPOINTS.reduce((n, [name, , runs]) => n + runsFor(name, runs), 0);
  const cuts = [0];
  let sum = 0;
  for (const [i, [name, , runs]] of ENDPOINTS.entries()) {
    sum += runsFor(name, runs);
    if (cuts.length < PARTS && sum >= (cuts.length * totalRuns) / PARTS) cuts.push(i + 1);
  }
  while (cuts.length <= PARTS) cuts.push(ENDPOINTS.length);
  for (let part = 0; part < PARTS; part++) {
    const from = cuts[part]!;
    const to = part === PARTS - 1 ? ENDPOINTS.length : cuts[part + 1]!;
    it(`no 5xx and every 4xx is { error, code }: endpoints ${from + 1} to ${to} of ${ENDPOINTS.length}`, async () => {
      if (!before) {
        before = await snapshotB();
        expect(before.listStatus).toBe(200);
        expect(JSON.parse(before.list)).toHaveLength(5);
        started = Date.now();
      }
      for (const [name, arb, runs] of ENDPOINTS.slice(from, to)) {
        const numRuns = runsFor(name, runs);
        const t0 = Date.now();
        await fc.assert(
          fc.asyncProperty(arb, async (spec) => {
            await send(name, spec);
          }),
          {
            numRuns,
            endOnFailure: true,
            // The default report prints the whole counterexample, 70 KB strings included.
            asyncReporter: async (details) => {
              if (!details.failed) return;
              const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
              throw new Error(`${name}: property failed after ${details.numRuns} runs (seed ${details.seed}, path ${details.counterexamplePath})\n${cause.slice(0, 1500)}`);
            },
          },
        );
        timings.push(`${name} ${Date.now() - t0} ms`);
      }
      partsRun += 1;
    }, 120_000);
  }

  it('after every part: each route was reached, the handlers were, and account B is untouched', async (ctx) => {
    // Only with every part run (a -t filter may have left some out).
    if (partsRun < PARTS) return ctx.skip();
    const elapsed = Date.now() - started!;
    const summary = [...stats.entries()].map(([name, byStatus]) => `${name}: ${[...byStatus.entries()].sort(([x], [y]) => x - y).map(([st, c]) => `${st}x${c}`).join(' ')}`);
    console.info(`fuzz: ${requests} requests in ${elapsed} ms\n  ${summary.join('\n  ')}\n  ${timings.join('\n  ')}`);
    expect(requests).toBeGreaterThanOrEqual(Math.round(6000 * RUNS_SCALE));
    // Every route of the app was actually sent requests.
    const sentTo = (name: string) => [...(stats.get(name) ?? new Map<number, number>()).values()].reduce((n, c) => n + c, 0);
    expect(appRoutes().filter((r) => sentTo(r) < 10), 'routes that got fewer than 10 fuzzed requests').toEqual([]);
    // Sanity: the generators reach the handlers, not only the validators.
    const ok = (name: string) => [...(stats.get(name) ?? new Map<number, number>()).entries()].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0);
    for (const name of MUST_SUCCEED) {
      expect(ok(name), `${name} never succeeded: ${JSON.stringify([...(stats.get(name) ?? [])])}`).toBeGreaterThan(5);
    }

    // Account B: same API answers, same rows.
    const after = await snapshotB();
    expect(after).toEqual(before);

    // No prototype pollution in the server process (it runs inside this one).
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).is_paused).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);

    // Nothing invalid reached the database.
    const db = server.app.db;
    const badTypes = await db.selectFrom('destinations').select(['id', 'type']).where('type', 'not in', ['discord_dm', 'discord_channel', 'webhook', 'email']).execute();
    expect(badTypes).toEqual([]);
    const reminders = await db.selectFrom('reminders').select(['id', 'recurrence_type', 'rrule', 'exceptions', 'message', 'timezone', 'remind_at_utc', 'next_fire_utc']).execute();
    for (const r of reminders) {
      expect([...RECURRENCES, 'CUSTOM']).toContain(r.recurrence_type);
      // A custom reminder holds a rule the parser accepts, in canonical form; presets hold none.
      if (r.recurrence_type === 'CUSTOM') expect(parseRRule(r.rrule ?? '').ok && formatRRule((parseRRule(r.rrule!) as { rule: ParsedRRule }).rule)).toBe(r.rrule);
      else expect(r.rrule).toBeNull();
      expect(JSON.parse(r.exceptions)).toEqual(expect.any(Array));
      expect(r.message.trim()).not.toBe('');
      expect([...r.message].length).toBeLessThanOrEqual(2000);
      expect(() => new Intl.DateTimeFormat('en', { timeZone: r.timezone })).not.toThrow();
      expect(Number.isNaN(Date.parse(r.remind_at_utc))).toBe(false);
    }
    const hooks = await db.selectFrom('destinations').select(['metadata', 'secret']).where('type', '=', 'webhook').execute();
    for (const h of hooks) {
      expect(JSON.parse(h.metadata).url).toMatch(/^https?:\/\//);
      expect(h.secret).toMatch(/^whsec_/);
    }
    const accounts = await db.selectFrom('accounts').select(['timezone', 'username']).execute();
    for (const acc of accounts) {
      expect(() => new Intl.DateTimeFormat('en', { timeZone: acc.timezone })).not.toThrow();
      expect(acc.username.trim()).not.toBe('');
    }

    // A is still signed in: the run did exercise the authenticated paths.
    expect((await a.api.get('/api/account')).status).toBe(200);
  });

  it('edge values of dates, zones and ranges never cause a 5xx', async () => {
    const edgeZones = ['Pacific/Kiritimati', 'Etc/GMT+12', 'Etc/GMT-14', 'Australia/Lord_Howe', 'America/St_Johns', 'Asia/Kathmandu', 'Antarctica/Troll', 'Europe/Paris'];
    const edgeWhen = [
      ['9999-12-31', '23:59'],
      ['9999-12-31', '00:00'],
      ['9999-02-28', '12:00'],
      ['1970-01-01', '00:00'],
      ['1970-01-01', '23:59'],
      ['2026-03-29', '02:30'],
      ['2026-10-25', '02:30'],
      ['2024-02-29', '23:59'],
      ['2030-01-31', '00:00'],
    ];
    const failures: string[] = [];
    const api = client(server.url, a.token);
    const check = async (method: string, path: string, body?: unknown) => {
      const res = await api.call<Record<string, unknown> | null>(method, path, body);
      if (res.status >= 500) {
        const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
        failures.push(`${res.status} ${method} ${path} ${JSON.stringify(body ?? null)}: ${text.slice(0, 200)}`);
      }
      return res;
    };
    for (const [z, timezone] of edgeZones.entries()) {
      for (const [d, [date, time]] of edgeWhen.entries()) {
        for (const [r, recurrence] of RECURRENCES.entries()) {
          await check('GET', `/api/reminders/preview?date=${date}&time=${time}&recurrence=${recurrence}&timezone=${enc(timezone)}&count=50`);
          // Every zone, date and rule is previewed together above; a saved reminder's routes take
          // one rule per zone and date, so every pair of the three still meets (8 zones and 9
          // dates against 8 rules) at an eighth of the requests.
          if (r !== (z + d) % RECURRENCES.length) continue;
          const created = await check('POST', '/api/reminders', { date, time, message: `edge ${date} ${time} ${recurrence}`, recurrence, timezone });
          if (created.status !== 201) continue;
          const id = String(created.body!.id);
          for (const [from, to] of [
            ['9999-06-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z'],
            ['9999-12-01T00:00:00.000Z', '+010000-12-01T00:00:00.000Z'],
            ['+275760-01-01T00:00:00.000Z', '+275760-09-13T00:00:00.000Z'],
            ['-271821-04-20T00:00:00.000Z', '-271820-01-01T00:00:00.000Z'],
            ['1969-12-01T00:00:00.000Z', '1970-02-01T00:00:00.000Z'],
          ]) {
            await check('GET', `/api/reminders/${id}/occurrences?from=${enc(from!)}&to=${enc(to!)}`);
          }
          await check('GET', `/api/reminders/${id}/occurrences?count=100`);
          await check('POST', `/api/reminders/${id}/snooze`, { until: '9999-12-31T23:59:59.999Z' });
          await check('POST', `/api/reminders/${id}/snooze`, { minutes: 525_600 });
          await check('POST', `/api/reminders/${id}/pause`);
          await check('POST', `/api/reminders/${id}/resume`);
          await check('POST', `/api/reminders/${id}/duplicate`);
          await check('PUT', `/api/reminders/${id}`, { date, time, message: 'edited', recurrence, timezone: 'UTC' });
          await check('GET', `/api/reminders/${id}`);
        }
      }
    }
    await check('GET', '/api/reminders');
    expect(failures).toEqual([]);
  }, 180_000);
});
