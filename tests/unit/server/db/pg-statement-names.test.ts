import { describe, expect, it } from 'vitest';
import { isStalePreparedStatement, StatementNames } from '../../../../server/db/pg-statement-names.ts';

const LIST = 'select * from "reminders" where "account_id" = $1';

describe('StatementNames', () => {
  it('names a statement on its second use, and keeps that name', () => {
    const names = new StatementNames();
    expect(names.nameFor(LIST, 1)).toBeUndefined();
    const name = names.nameFor(LIST, 1);
    expect(name).toMatch(/^chime_\d+$/);
    expect(names.nameFor(LIST, 1)).toBe(name);
    expect(names.nameFor('select * from "accounts" where "id" = $1', 1)).toBeUndefined();
  });

  it('never names what is not worth planning once: transaction control, settings, DDL, statements without parameters', () => {
    const names = new StatementNames();
    for (const text of ['begin', 'commit', 'set lock_timeout = 3000', 'alter table "reminders" add column "x" text', 'select 1']) {
      names.nameFor(text, 0);
      expect(names.nameFor(text, 0)).toBeUndefined();
    }
    names.nameFor('create index "i" on "reminders" ("id") where "id" = $1', 1);
    expect(names.nameFor('create index "i" on "reminders" ("id") where "id" = $1', 1)).toBeUndefined();
  });

  it('names at most its limit of texts, and forgets one-off texts beyond its memory', () => {
    const text = (i: number) => `select * from "reminders" where "id" in (${Array.from({ length: i }, (_, j) => `$${j + 1}`).join(', ')})`;
    const names = new StatementNames(2, 3);
    for (const i of [1, 2, 3]) names.nameFor(text(i), i);
    expect(names.nameFor(text(1), 1)).toBe('chime_1');
    expect(names.nameFor(text(2), 2)).toBe('chime_2');
    expect(names.nameFor(text(3), 3)).toBeUndefined();
    // Seen once each, beyond the memory of 3: the first are forgotten, so a second use is a first one.
    const fresh = new StatementNames(10, 3);
    for (const i of [1, 2, 3, 4]) fresh.nameFor(text(i), i);
    expect(fresh.nameFor(text(1), 1)).toBeUndefined();
    expect(fresh.nameFor(text(4), 4)).toBe('chime_1');
  });
});

describe('isStalePreparedStatement', () => {
  it("recognises PostgreSQL's refusal after a schema change, and nothing else", () => {
    expect(isStalePreparedStatement({ code: '0A000', message: 'cached plan must not change result type' })).toBe(true);
    expect(isStalePreparedStatement({ code: '0A000', message: 'FOR UPDATE is not allowed with aggregate functions' })).toBe(false);
    expect(isStalePreparedStatement({ code: '23505', message: 'duplicate key value' })).toBe(false);
    expect(isStalePreparedStatement(null)).toBe(false);
  });
});
