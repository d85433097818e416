import { describe, expect, it } from 'vitest';
import { unsupportedNodeReason } from '../../../../server/lib/node-support.ts';

describe('unsupportedNodeReason', () => {
  it('accepts Node 20.19 and later 20s, and 22', () => {
    for (const v of ['v20.19.0', 'v20.20.2', 'v22.0.0', 'v22.23.3', 'v23.11.1']) expect(unsupportedNodeReason(v)).toBeNull();
  });
  it('refuses what is too old, saying what is needed', () => {
    expect(unsupportedNodeReason('v20.18.3')).toMatch(/needs Node\.js 20\.19 or newer/);
    expect(unsupportedNodeReason('v18.20.0')).toMatch(/this is v18\.20\.0/);
  });
  it('refuses Node 24 and later with the reason and what to use instead', () => {
    expect(unsupportedNodeReason('v24.21.0')).toMatch(/better-sqlite3 12.*Node\.js 22 LTS/);
    expect(unsupportedNodeReason('v25.1.0')).not.toBeNull();
  });
});
