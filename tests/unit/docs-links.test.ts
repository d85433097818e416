/**
 * The documentation's links hold: in README.md and docs/**\/*.md,
 * - every relative link `[text](path#anchor)` points to a file or folder that exists, and its
 *   anchor (or a bare `#anchor`) to a heading of that file (GitHub's heading ids);
 * - every backticked repository path (`server/x.ts`, `tests/unit/`, `docs/api.md`...) exists.
 *   Placeholders are patterns: `<name>` is any one path segment, `*` any part of one, `{a,b}`
 *   either; they must still match something.
 * Code blocks are not read: they hold commands and sample output, not references.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/repo-root.ts';

/** Top-level folders of the repository: a backticked path starting with one of them is checked. */
const REPO_FOLDERS = ['.ci', 'bench', 'bot', 'deploy', 'docs', 'eslint-rules', 'locales', 'migrations', 'scripts', 'server', 'tests', 'web'];

/** Files the documentation may name before they exist, with the file that writes them. */
const GENERATED: Record<string, string> = {
  'bench/RESULTS.md': 'bench/run-all.ts', // npm run bench
};

function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) return walk(rel);
      return entry.name.endsWith('.md') ? [rel] : [];
    });
  return ['README.md', ...walk('docs')];
}

/** The text with fenced code blocks blanked out, line numbers kept. */
function withoutCodeBlocks(text: string): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    ids.add(count === 0 ? base : `${base}-${count}`);
  }
  return ids;
}

/** Whether a repository path, possibly with placeholders, names something that exists. */
function pathExists(relPath: string): boolean {
  const clean = relPath.replace(/\/+$/, '');
  if (GENERATED[clean]) {
    const writer = GENERATED[clean];
    return existsSync(path.join(REPO_ROOT, writer)) && readFileSync(path.join(REPO_ROOT, writer), 'utf8').includes(clean);
  }
  if (!/[<>{}*]/.test(clean)) return existsSync(path.join(REPO_ROOT, clean));
  const segments = clean.split('/');
  const matches = (dir: string, index: number): boolean => {
    if (index === segments.length) return true;
    const segment = segments[index]!;
    if (!/[<>{}*]/.test(segment)) {
      const next = path.join(dir, segment);
      return existsSync(next) && matches(next, index + 1);
    }
    const pattern = new RegExp(
      '^' +
        segment
          .split(/(<[^>]*>|\{[^}]*\}|\*)/)
          .map((part) => {
            if (part.startsWith('<')) return '.+';
            if (part === '*') return '.*';
            if (part.startsWith('{')) return `(${part.slice(1, -1).split(',').map(escapeRegExp).join('|')})`;
            return escapeRegExp(part);
          })
          .join('') +
        '$',
    );
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
    return readdirSync(dir).some((name) => pattern.test(name) && matches(path.join(dir, name), index + 1));
  };
  return matches(REPO_ROOT, 0);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The broken references of one Markdown file (`file` relative to the repository root). */
export function brokenReferences(file: string, markdown: string, readMarkdown: (file: string) => string | undefined): string[] {
  const problems: string[] = [];
  const text = withoutCodeBlocks(markdown);
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    // Inline code first: a link inside backticks is not a link.
    const codeSpans = [...line.matchAll(/(`+)([\s\S]*?[^`])\1(?!`)/g)];
    const prose = codeSpans.reduce((rest, span) => rest.replace(span[0], ' '.repeat(span[0].length)), line);

    for (const link of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = link[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue; // external or a route
      const [rawPath, anchor] = target.split('#') as [string, string | undefined];
      const resolved = rawPath === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(rawPath)));
      if (resolved.startsWith('..')) {
        problems.push(`${where}: ${target} leaves the repository`);
        continue;
      }
      if (!pathExists(resolved)) {
        problems.push(`${where}: ${target} does not exist`);
        continue;
      }
      if (anchor !== undefined) {
        const targetText = rawPath === '' ? markdown : resolved.endsWith('.md') ? readMarkdown(resolved) : undefined;
        if (targetText === undefined) problems.push(`${where}: ${target} has an anchor but is not a Markdown file`);
        else if (!headingIds(targetText).has(anchor)) problems.push(`${where}: ${target}: no heading #${anchor} in ${resolved}`);
      }
    }

    for (const span of codeSpans) {
      for (const token of span[2]!.trim().split(/\s+/)) {
        const candidate = token.replace(/^["'(]+|["'),.:;]+$/g, '');
        const folder = candidate.split('/')[0]!;
        if (!candidate.includes('/') || !REPO_FOLDERS.includes(folder)) continue;
        // `tests/...`: only the part before the ellipsis is a path.
        const checked = candidate.split(/\.\.\.|…/)[0]!;
        if (!pathExists(checked)) problems.push(`${where}: \`${candidate}\` does not exist`);
      }
    }
  });
  return problems;
}

function readRepoMarkdown(file: string): string | undefined {
  const full = path.join(REPO_ROOT, file);
  return existsSync(full) && statSync(full).isFile() ? readFileSync(full, 'utf8') : undefined;
}

describe('documentation links', () => {
  const files = markdownFiles();

  it('reads the README and every file under docs/', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/architecture.md');
    expect(files.length).toBeGreaterThan(5);
  });

  it('has no broken relative link, anchor or repository path', () => {
    const problems = files.flatMap((file) => brokenReferences(file, readFileSync(path.join(REPO_ROOT, file), 'utf8'), readRepoMarkdown));
    expect(problems).toEqual([]);
  });

  it('the README links every file of docs/ and the benchmark results', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const linked = new Set([...readme.matchAll(/\]\(([^)#\s]+)/g)].map((m) => path.posix.normalize(m[1]!)));
    const docs = files.filter((file) => file.startsWith('docs/') && path.posix.dirname(file) === 'docs');
    const missing = [...docs, 'docs/decisions/README.md', 'bench/RESULTS.md'].filter((file) => !linked.has(file));
    expect(missing).toEqual([]);
  });

  it('catches what it is meant to catch', () => {
    const page = [
      '# Title',
      '## A `code` section (with words)',
      '[ok](#a-code-section-with-words) [ok](docs/api.md#personal-access-tokens) [ok](docs/)',
      '[bad](docs/nope.md) [bad anchor](#nowhere) [bad](docs/api.md#nowhere)',
      '`server/app.ts` `web/src/features/<feature>/` `locales/{en,fr}/common.json` `server/nope.ts`',
      '```',
      '[inside a code block](docs/ignored.md) `server/ignored.ts`',
      '```',
    ].join('\n');
    expect(brokenReferences('README.md', page, readRepoMarkdown).map((p) => p.replace(/^README\.md:\d+: /, ''))).toEqual([
      'docs/nope.md does not exist',
      '#nowhere: no heading #nowhere in README.md',
      'docs/api.md#nowhere: no heading #nowhere in docs/api.md',
      '`server/nope.ts` does not exist',
    ]);
  });
});
