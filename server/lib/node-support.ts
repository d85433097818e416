/**
 * Which Node.js lines Chime runs on (docs/operations.md "Node.js versions"). Node 24 is refused at
 * start: better-sqlite3 12 wraps its statements in the raw `node::ObjectWrap`, whose destructor
 * Node 24 checks against a live environment, so a statement collected in a delivery thread aborts
 * the whole process (seen with scripts/smoke-node.mjs). better-sqlite3 13 fixes it but needs Node
 * 22, so the move waits until Node 20 is gone from the machines Chime is tested on.
 */
export const OLDEST_NODE = '20.19';

/** Why this Node cannot run Chime, or null when it can. */
export function unsupportedNodeReason(version: string): string | null {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) return `Chime needs Node.js ${OLDEST_NODE} or newer (22 LTS recommended); this is ${version}.`;
  if (major >= 24) return `Chime does not run on Node.js ${version} yet: its SQLite driver (better-sqlite3 12) aborts the process there. Use Node.js 22 LTS (docs/operations.md "Node.js versions").`;
  return null;
}
