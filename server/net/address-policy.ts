import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may never reach unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true: anything that is
 * not the public internet. Checked on literal URLs at the API and again on every resolved address
 * at connect time (DNS can answer differently the second time).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address embedded in an IPv4-mapped/compatible, NAT64 or 6to4 IPv6 address, if any. */
function embeddedIpv4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  if (sixToFour) {
    const hi = parseInt(sixToFour[1]!, 16);
    const lo = parseInt(sixToFour[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** True when the IP literal is loopback, private, link-local, CGNAT, multicast, unspecified or reserved. */
export function isForbiddenAddress(ip: string): boolean {
  const unbracketed = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(unbracketed);
  if (family === 4) return blocked.check(unbracketed, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(unbracketed);
    if (v4 !== null) return blocked.check(v4, 'ipv4');
    return blocked.check(unbracketed, 'ipv6');
  }
  // Not an IP at all: the caller must resolve it first. Treat as forbidden so nothing slips through.
  return true;
}

export type WebhookUrlProblem = { code: 'WEBHOOK_URL_INVALID' | 'WEBHOOK_TARGET_FORBIDDEN'; message: string };

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Static checks on a webhook URL (no DNS): http(s), length, no credentials, and no literal
 * private address. The WHATWG parser already turns 2130706433, 0x7f.1 and 127.1 into 127.0.0.1.
 */
export function checkWebhookUrl(raw: string, allowPrivateTargets: boolean): WebhookUrlProblem | null {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return { code: 'WEBHOOK_URL_INVALID', message: `Webhook URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { code: 'WEBHOOK_URL_INVALID', message: 'Webhook URL is not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { code: 'WEBHOOK_URL_INVALID', message: 'Webhook URL must start with http:// or https://' };
  if (url.username || url.password) return { code: 'WEBHOOK_URL_INVALID', message: 'Webhook URL must not contain a user name or password' };
  if (allowPrivateTargets) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const lowered = host.toLowerCase().replace(/\.$/, '');
  if (lowered === 'localhost' || lowered.endsWith('.localhost') || lowered.endsWith('.local') || lowered.endsWith('.internal')) {
    return { code: 'WEBHOOK_TARGET_FORBIDDEN', message: 'Webhook URL points to a private network address, which is not allowed' };
  }
  if (isIP(host) && isForbiddenAddress(host)) {
    return { code: 'WEBHOOK_TARGET_FORBIDDEN', message: 'Webhook URL points to a private network address, which is not allowed' };
  }
  return null;
}
