/**
 * Another process sharing the SQLite file (a web-only node, a second instance) cannot call wake():
 * its reminders would wait for the 30 s safety net. The database's change token moves when any
 * connection commits, so the loop re-arms soon after a write it did not see.
 */
export const EXTERNAL_WRITES_POLL_MS = 500;

export function watchExternalWrites(changeToken: () => string, wake: () => void, intervalMs = EXTERNAL_WRITES_POLL_MS): () => void {
  let last = safe(changeToken);
  const timer = setInterval(() => {
    const now = safe(changeToken);
    if (now !== last) {
      last = now;
      wake();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

function safe(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}
