/**
 * A path segment this long is taken for a credential (Slack's and Discord's webhook tokens, a
 * generic receiver's key) and not shown, unless it is all digits (Discord's webhook id).
 */
const SECRET_SEGMENT = 16;
const isSecretLike = (segment: string) => segment.length >= SECRET_SEGMENT && !/^\d+$/.test(segment);
const MAX_PLACE = 60;

/**
 * Where a webhook posts, enough to tell two webhooks on one host apart, "hooks.slack.com/services/
 * T0123/B0456/…": host and path, token-like segments left out, at most 60 characters. The webhook
 * form's own field masks more (webhook-url.ts); this names a saved destination in the history.
 */
export function webhookPlace(url: string | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const segments = parsed.pathname
    .split('/')
    .filter(Boolean)
    .map((segment) => (isSecretLike(segment) ? '…' : segment));
  const place = [parsed.host, ...segments].join('/');
  return place.length > MAX_PLACE ? `${place.slice(0, MAX_PLACE - 1)}…` : place;
}
