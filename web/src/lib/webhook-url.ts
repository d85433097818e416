/**
 * Webhook URLs carry their secret in the path (Discord, Slack): show the host and a hint of the
 * path only.
 */
export function maskWebhookUrl(raw: string | undefined): string {
  if (!raw) return '';
  try {
    const url = new URL(raw);
    const first = url.pathname.split('/').filter(Boolean)[0];
    // Only http(s) can be delivered: any other scheme is shown, so the address does not look right.
    const scheme = url.protocol === 'http:' || url.protocol === 'https:' ? '' : `${url.protocol}//`;
    return `${scheme}${url.host}${first ? `/${first}` : ''}${url.pathname.split('/').filter(Boolean).length > 1 || url.search ? '/…' : ''}`;
  } catch {
    return raw.length > 40 ? `${raw.slice(0, 37)}…` : raw;
  }
}
