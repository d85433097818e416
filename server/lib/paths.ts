import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`package.json not found above ${from}`);
    dir = up;
  }
  return dir;
}

const here = fileURLToPath(import.meta.url);

/**
 * The repository root, found the same way from the TypeScript sources (tsx) and from the compiled
 * bundle in dist/, so file locations never depend on where a module ended up after bundling.
 */
export const ROOT = findRoot(path.dirname(here));
/** True when running the compiled bundle (dist/main.mjs). */
export const COMPILED = here.endsWith('.mjs');
export const WEB_DIST = path.join(ROOT, 'web', 'dist');
export const LOCALES_DIR = path.join(ROOT, 'locales');
export const MIGRATIONS_DIR = COMPILED ? path.join(ROOT, 'dist', 'migrations') : path.join(ROOT, 'migrations');
