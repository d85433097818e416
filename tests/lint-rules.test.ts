/**
 * The project's own lint rules (eslint.config.js), run through ESLint's Node API on small snippets
 * placed at made-up paths (the files need not exist; the path decides which rules apply):
 *
 * - features do not import each other (eslint-rules/no-cross-feature-imports.js), by alias or
 *   by relative path;
 * - Kysely query builders only in server/repositories and server/db.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** Rule ids reported for `code` as if it were the file at `file` (relative to the repo root). */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

const CROSS = 'chime/no-cross-feature-imports';
const SQL = 'no-restricted-syntax';

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
