/**
 * The project's own lint rules (eslint.config.js), run through ESLint's Node API on small snippets
 * placed at made-up paths (the files need not exist; the path decides which rules apply):
 *
 * - features do not import each other (eslint-rules/no-cross-feature-imports.js), by alias or
 *   by relative path;
 * - Kysely query builders only in server/repositories and server/db;
 * - layers point one way (eslint-rules/layer-imports.js): server/ never imports bot/, server/lib/
 *   imports nothing above it.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/repo-root.ts';

const ROOT = REPO_ROOT;

let eslint: ESLint;
beforeAll(async () => {
  eslint = new ESLint({ cwd: ROOT });
  // The first run loads the TypeScript parser (seconds on a busy machine): here, not in a test.
  await eslint.lintText('export {};\n', { filePath: path.join(ROOT, 'server/app.ts') });
});

/** Rule ids reported for `code` as if it were the file at `file` (relative to the repo root). */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

const CROSS = 'chime/no-cross-feature-imports';
const SQL = 'no-restricted-syntax';
const LAYERS = 'layers/layer-imports';

describe('lint: no imports between web features', () => {
  const file = 'web/src/features/dashboard/components/some-card.tsx';

  it('reports an alias import of another feature', async () => {
    expect(await ruleIds(file, "import { x } from '@/features/reminders/api/destinations';\nexport const y = x;\n")).toEqual([CROSS]);
    expect(await ruleIds(file, "export { x } from '@/features/account/api/account-api';\n")).toEqual([CROSS]);
    expect(await ruleIds(file, "export const load = () => import('@/features/auth/routes/login');\n")).toEqual([CROSS]);
  });

  it('reports a relative import that climbs into another feature', async () => {
    expect(await ruleIds(file, "import { x } from '../../reminders/api/destinations';\nexport const y = x;\n")).toEqual([CROSS]);
    expect(await ruleIds('web/src/features/dashboard/x.ts', "export * from '../account';\n")).toEqual([CROSS]);
  });

  it('allows the same feature, shared lib and components, and packages', async () => {
    const code = [
      "import { a } from '../lib/reminder-display';",
      "import { b } from './status-card';",
      "import { c } from '@/features/dashboard/lib/use-now';",
      "import { d } from '@/lib/reminder-status';",
      "import { e } from '@/components/ui/badge';",
      "import { f } from 'react';",
      'export const all = [a, b, c, d, e, f];',
      '',
    ].join('\n');
    expect(await ruleIds(file, code)).toEqual([]);
  });

  it('does not apply outside web/src/features (the router imports every feature)', async () => {
    expect(await ruleIds('web/src/app/router.tsx', "export const load = () => import('@/features/dashboard/routes/home');\n")).toEqual([]);
  });
});

describe('lint: Kysely query builders only in repositories', () => {
  const snippet = (call: string) => `export async function f(db: any) {\n  return db\n    .${call}('reminders')\n    .execute();\n}\n`;

  for (const call of ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom']) {
    it(`reports .${call}( in server and bot code`, async () => {
      expect(await ruleIds('server/routes/reminders/index.ts', snippet(call))).toEqual([SQL]);
      expect(await ruleIds('server/scheduler/claimer.ts', snippet(call))).toEqual([SQL]);
      expect(await ruleIds('bot/commands/remind.ts', snippet(call))).toEqual([SQL]);
    });
  }

  it('says where the query belongs', async () => {
    const [result] = await eslint.lintText(snippet('selectFrom'), { filePath: path.join(ROOT, 'server/reminders/service.ts') });
    expect(result?.messages[0]?.message).toMatch(/server\/repositories/);
  });

  it('allows them in server/repositories and server/db, and outside server and bot', async () => {
    expect(await ruleIds('server/repositories/reminders.ts', snippet('selectFrom'))).toEqual([]);
    expect(await ruleIds('server/db/migrate.ts', snippet('deleteFrom'))).toEqual([]);
    expect(await ruleIds('tests/some.test.ts', snippet('updateTable'))).toEqual([]);
  });

  it('does not report other calls of the same objects', async () => {
    expect(await ruleIds('server/reminders/service.ts', 'export const f = (db: any) => db.transaction().execute(async () => 1);\n')).toEqual([]);
    // A bare function of that name is not a query builder call on a database.
    expect(await ruleIds('server/reminders/service.ts', 'declare function selectFrom(x: string): void;\nselectFrom("x");\n')).toEqual([]);
  });
});

describe('lint: server/ never imports bot/', () => {
  it('reports static, re-exported and dynamic imports of bot/ from anywhere in server/', async () => {
    expect(await ruleIds('server/destinations/discord-dm/sender.ts', "import { t } from '../../../bot/i18n.ts';\nexport const x = t;\n")).toEqual([LAYERS]);
    expect(await ruleIds('server/app.ts', "export { default } from '../bot/plugin.ts';\n")).toEqual([LAYERS]);
    expect(await ruleIds('server/scheduler/plugin.ts', "export const load = () => import('../../bot/bot.ts');\n")).toEqual([LAYERS]);
    expect(await ruleIds('server/app.ts', "import x from '../web/src/main.tsx';\nexport const y = x;\n")).toEqual([LAYERS]);
  });

  it('says which layer rule was broken', async () => {
    const [result] = await eslint.lintText("import '../bot/plugin.ts';\n", { filePath: path.join(ROOT, 'server/app.ts') });
    expect(result?.messages[0]?.message).toMatch(/server\/ never imports bot\//);
  });

  it('allows server/ to server/, the bot to the server, and the entry point to both', async () => {
    expect(await ruleIds('server/destinations/discord-dm/sender.ts', "import { t } from '../../discord/i18n.ts';\nimport { REST } from '@discordjs/rest';\nexport const x = [t, REST];\n")).toEqual([]);
    expect(await ruleIds('bot/commands/remind.ts', "import { t } from '../../server/discord/i18n.ts';\nexport const x = t;\n")).toEqual([]);
    expect(await ruleIds('main.ts', "import botPlugin from './bot/plugin.ts';\nimport { buildApp } from './server/app.ts';\nexport const x = [botPlugin, buildApp];\n")).toEqual([]);
    // A folder whose name only starts like bot/ is not bot/.
    expect(await ruleIds('server/app.ts', "import x from './bots/y.ts';\nexport const z = x;\n")).toEqual([]);
  });
});

describe('lint: server/lib/ imports nothing above it', () => {
  it('reports an import of a service, a repository, the errors, the bot or the dashboard', async () => {
    const file = 'server/lib/some-helper.ts';
    for (const source of ['../errors.ts', '../repositories/executor.ts', '../reminders/service.ts', '../discord/i18n.ts', '../../bot/format.ts', '../../web/src/lib/api.ts']) {
      expect(await ruleIds(file, `import x from '${source}';\nexport const y = x;\n`), source).toEqual([LAYERS]);
    }
    expect(await ruleIds(file, "import type { Executor } from '../repositories/executor.ts';\nexport type E = Executor;\n")).toEqual([LAYERS]);
  });

  it('allows server/lib itself and packages', async () => {
    expect(await ruleIds('server/lib/some-helper.ts', "import { a } from './language.ts';\nimport { b } from './nested/x.ts';\nimport { createHash } from 'node:crypto';\nexport const y = [a, b, createHash];\n")).toEqual([]);
  });
});
