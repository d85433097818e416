import { fileURLToPath } from 'node:url';

/** The repository's root folder, wherever the test that needs it sits in the tests tree. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
