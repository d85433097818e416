/**
 * The server build keeps the chunks of this build and of the one before it (a server still running
 * from the previous build loads some chunks only when first used) and removes older ones, so
 * upgrades do not fill dist/chunks.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JS build script without types
import { buildServer } from '../../../scripts/build-server.mjs';

const outdir = mkdtempSync(path.join(tmpdir(), 'chime-build-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const chunks = () => readdirSync(path.join(outdir, 'chunks')).sort();
const plant = (name: string) => writeFileSync(path.join(outdir, 'chunks', name), 'export {};\n');
const recordFile = path.join(outdir, '.chunks-of-last-build.json');
const record = (): string[] => JSON.parse(readFileSync(recordFile, 'utf8'));

describe('server build', () => {
  it('keeps the previous build’s chunks for a running server and removes older ones', async () => {
    await buildServer({ outdir });
    const built = chunks();
    expect(built.some((name) => name.endsWith('.mjs'))).toBe(true);
    expect(record().sort()).toEqual(built);
    for (const name of built) expect(existsSync(path.join(outdir, 'chunks', name))).toBe(true);

    // A chunk that only the previous build used, and one that no recent build used.
    plant('sender-PREVIOUS.mjs');
    plant('chunk-ANCIENT.mjs');
    writeFileSync(recordFile, JSON.stringify([...record(), 'sender-PREVIOUS.mjs']));
    await buildServer({ outdir });
    expect(chunks()).toEqual([...built, 'sender-PREVIOUS.mjs'].sort());

    // One build later the previous build's chunk is two builds old.
    await buildServer({ outdir });
    expect(chunks()).toEqual(built);
    expect(existsSync(path.join(outdir, 'main.mjs'))).toBe(true);
    expect(existsSync(path.join(outdir, 'scheduler-worker.mjs'))).toBe(true);
    expect(readdirSync(path.join(outdir, 'migrations')).length).toBeGreaterThan(0);
  }, 120_000);

  it('removes nothing when it has no record of the previous build', async () => {
    rmSync(recordFile);
    plant('chunk-UNKNOWN.mjs');
    await buildServer({ outdir });
    expect(chunks()).toContain('chunk-UNKNOWN.mjs');
    await buildServer({ outdir });
    expect(chunks()).not.toContain('chunk-UNKNOWN.mjs');
  }, 120_000);
});
