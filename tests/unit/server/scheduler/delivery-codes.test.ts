/**
 * Every failure code a delivery can store has its words in locales/<lng>/delivery.json, so the
 * dashboard never falls back to the English detail for a code the server really emits.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DISCORD_CODES } from '../../../../server/destinations/discord-common/delivery.ts';
import { ALL_PUSH_CODES } from '../../../../server/destinations/push-common/codes.ts';
import { WEBHOOK_CODES } from '../../../../server/destinations/webhook/codes.ts';
import { EMAIL_CODES } from '../../../../server/mail/transport.ts';
import { SEND_CODES } from '../../../../server/scheduler/types.ts';
import { REPO_ROOT } from '../../../helpers/repo-root.ts';

const ROOT = REPO_ROOT;

/** The access checks' codes (server/discord/access.ts), a type union there, read from its source. */
function accessCodes(): string[] {
  const source = readFileSync(path.join(ROOT, 'server/discord/access.ts'), 'utf8');
  return [...new Set([...source.matchAll(/fail\('([A-Z_]+)'/g)].map((m) => m[1]!))];
}

describe('delivery codes', () => {
  const codes = [
    ...Object.values(WEBHOOK_CODES),
    ...Object.values(DISCORD_CODES),
    ...Object.values(SEND_CODES),
    ...Object.values(EMAIL_CODES),
    ...accessCodes(),
    ...ALL_PUSH_CODES,
    // Set by the outbox when 5 deliveries in a row failed (server/repositories/attempt-results.ts).
    'DESTINATION_FAILING',
  ];

  it('finds the codes it checks', () => {
    expect(codes).toContain('WEBHOOK_HTTP_5XX');
    expect(codes).toContain('DISCORD_CANNOT_POST');
    expect(codes.length).toBeGreaterThan(30);
  });

  for (const lng of ['en', 'fr', 'es']) {
    it(`has words for each of them in ${lng}`, () => {
      const words = (JSON.parse(readFileSync(path.join(ROOT, 'locales', lng, 'delivery.json'), 'utf8')) as { codes: Record<string, string> }).codes;
      expect(codes.filter((c) => !words[c])).toEqual([]);
    });
  }
});
