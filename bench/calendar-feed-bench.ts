/**
 * The calendar feed of an account with 1,000 reminders (mixed presets and custom rules, several
 * zones with DST, some skipped occurrences), over real HTTP against the server as `npm start` runs
 * it. Cold: the database changed since the last request, so the calendar is built again. With
 * If-None-Match: the same ETag, answered 304. Goal (issue 11): < 50 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { percentile, startServerProcess } from './lib/server-process.ts';

const ZONES = ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/Sao_Paulo', 'Asia/Tokyo'];
const PRESETS = ['ONCE', 'HOURLY', 'DAILY', 'WEEKLY', 'WORKDAYS', 'WEEKEND', 'MONTHLY', 'YEARLY'];
const RULES = ['FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE', 'FREQ=MONTHLY;BYDAY=-1FR', 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', 'FREQ=DAILY;INTERVAL=3;COUNT=50', 'FREQ=MINUTELY;INTERVAL=30'];

function reminders(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const custom = i % 4 === 3;
    const month = 1 + (i % 12);
    const day = 1 + (i % 28);
    return {
      message: `Bench reminder ${i}: water the plants, call back, stand-up`,
      date: `2027-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      // Some in DST gaps and overlaps (02:30, 01:30).
      time: ['09:00', '02:30', '01:30', '18:45', '07:15'][i % 5],
      timezone: ZONES[i % ZONES.length],
      recurrence: custom ? 'CUSTOM' : PRESETS[i % PRESETS.length],
      rrule: custom ? RULES[i % RULES.length] : null,
      exceptions: [],
      paused: false,
      destinations: [{ type: 'webhook', metadata: { url: `https://example.com/hook/${i}`, platform: 'generic' } }],
    };
  });
}

export async function run(options: { reminders?: number; samples?: number } = {}) {
  const count = options.reminders ?? 1000;
  const samples = options.samples ?? 25;
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-bench-feed-'));
  try {
    const server = await startServerProcess({ DATABASE_URL: path.join(dir, 'chime.db'), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SERVE_WEB: 'false', SCHEDULER_ENABLED: 'false' }, 3907);
    try {
      const json = { 'content-type': 'application/json' };
      async function account(email: string) {
        const creds = { email, username: 'bench', password: 'bench-password-1', timezone: 'Europe/Paris' };
        await fetch(`${server.url}/api/auth/register`, { method: 'POST', headers: json, body: JSON.stringify(creds) });
        const login = (await (await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ ...creds, remember_me: true }) })).json()) as { token: string };
        return { authorization: `Bearer ${login.token}` };
      }
      const auth = await account('feed@example.com');
      const other = await account('other@example.com');
      const imported = await fetch(`${server.url}/api/reminders/import`, {
        method: 'POST',
        headers: { ...json, ...auth },
        body: JSON.stringify({ format: 'json', content: JSON.stringify({ reminders: reminders(count) }), dry_run: false, mode: 'all_or_nothing' }),
      });
      const result = (await imported.json()) as { created: number; errors: unknown[] };
      if (result.created !== count) throw new Error(`import created ${result.created}: ${JSON.stringify(result.errors.slice(0, 3))}`);
      const { url } = (await (await fetch(`${server.url}/api/account/calendar-feed`, { headers: auth })).json()) as { url: string };
      const feedPath = new URL(url).pathname;
      // Another account's write changes the database, so the next feed request builds anew.
      const otherReminder = (await (
        await fetch(`${server.url}/api/reminders`, { method: 'POST', headers: { ...json, ...other }, body: JSON.stringify({ date: '2030-01-01', time: '09:00', message: 'x', recurrence: 'DAILY' }) })
      ).json()) as { id: string };
      let flip = false;
      const touch = async () => {
        flip = !flip;
        await fetch(`${server.url}/api/reminders/${otherReminder.id}/${flip ? 'pause' : 'resume'}`, { method: 'POST', headers: other });
      };

      const timed = async (headers: Record<string, string> = {}) => {
        const t0 = performance.now();
        const res = await fetch(server.url + feedPath, { headers });
        const body = await res.text();
        return { ms: performance.now() - t0, status: res.status, bytes: Buffer.byteLength(body), etag: res.headers.get('etag') ?? '' };
      };

      const first = await timed();
      if (first.status !== 200) throw new Error(`feed answered ${first.status}`);
      const cold: number[] = [];
      let etag = first.etag;
      for (let i = 0; i < samples; i++) {
        await touch();
        const r = await timed();
        if (r.status !== 200) throw new Error(`feed answered ${r.status}`);
        cold.push(r.ms);
        etag = r.etag;
      }
      const conditional: number[] = [];
      for (let i = 0; i < samples; i++) {
        const r = await timed({ 'if-none-match': etag });
        if (r.status !== 304) throw new Error(`conditional GET answered ${r.status}`);
        conditional.push(r.ms);
      }
      cold.sort((a, b) => a - b);
      conditional.sort((a, b) => a - b);
      const f = (n: number) => `${n.toFixed(1)} ms`;
      console.log(`Calendar feed, ${count} reminders in ${ZONES.length} zones (${Math.round(first.bytes / 1024)} KB of iCalendar):`);
      console.log(`  first request after start (zone data scanned): ${f(first.ms)}`);
      console.log(`  cold (database changed, calendar rebuilt): p50 ${f(percentile(cold, 50))}, p95 ${f(percentile(cold, 95))}, max ${f(cold.at(-1)!)}`);
      console.log(`  If-None-Match (304): p50 ${f(percentile(conditional, 50))}, p95 ${f(percentile(conditional, 95))}, max ${f(conditional.at(-1)!)}`);
      console.log(`  goal < 50 ms: cold ${percentile(cold, 50) < 50 ? 'met' : 'MISSED'}, conditional ${percentile(conditional, 50) < 50 ? 'met' : 'MISSED'}`);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
}
