/** The default support and community links come from package.json's `repository` field. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryUrl } from '../../../server/config.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'chime-repo-url-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function packageWith(repository: unknown): string {
  const file = path.join(dir, `package-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ name: 'chime', repository }));
  return file;
}

describe('repositoryUrl', () => {
  it('reads the GitHub shorthand, a git URL and an object with a url', () => {
    expect(repositoryUrl(packageWith('owner/chime'))).toBe('https://github.com/owner/chime');
    expect(repositoryUrl(packageWith('github:owner/chime'))).toBe('https://github.com/owner/chime');
    expect(repositoryUrl(packageWith({ type: 'git', url: 'git+https://github.com/owner/chime.git' }))).toBe('https://github.com/owner/chime');
    expect(repositoryUrl(packageWith({ type: 'git', url: 'git@github.com:owner/chime.git' }))).toBe('https://github.com/owner/chime');
  });

  it('is null without a repository, for one elsewhere than GitHub, or for an unreadable file', () => {
    expect(repositoryUrl(packageWith(undefined))).toBeNull();
    expect(repositoryUrl(packageWith('https://gitlab.com/owner/chime'))).toBeNull();
    expect(repositoryUrl(path.join(dir, 'missing.json'))).toBeNull();
  });
});
