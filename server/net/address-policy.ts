import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses and ports a webhook may reach. One classification, used on literal URLs when a
 * webhook is saved or tested (checkWebhookUrl) and again at connect time on the literal or on every
 * address DNS answered (server/net/ssrf-guard.ts): a name can resolve differently the second time.
 *
 * Addresses (unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true): only the public internet.
 * - IPv4: every block of the IANA IPv4 Special-Purpose Address Registry and multicast are refused
 *   (ipaddr.js's ranges: unspecified, broadcast, multicast, link-local, loopback, CGNAT, private,
 *   reserved and documentation, benchmarking, AS112, AMT), whatever the registry's "globally
 *   reachable" flag says: no webhook receiver lives on a protocol anycast address.
 * - IPv6: only global unicast (2000::/3) outside every special-purpose block, and the forms that
 *   carry an IPv4 address, judged by that IPv4 address: IPv4-mapped (::ffff:0:0/96, what the
 *   kernel connects to), NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32, server and
 *   obfuscated client address both). IPv4-compatible (::/96) and IPv4-translated
 *   (::ffff:0:0:0/96) addresses are deprecated and never routed: refused whatever they carry.
 *
 * Ports (always, even with private targets allowed): 80, 443 and 1024-65535 except the well-known
 * non-HTTP services below; a webhook is an HTTP POST, and aiming it at SMTP, Redis or memcached
 * is protocol smuggling.
 */

export interface AddressVerdict {
  forbidden: boolean;
  /** ipaddr.js's range name ('unicast' for an ordinary public address), or one of ours. */
  range: string;
  /** For the forms that carry an IPv4 address: the one that decided. */
  ipv4?: string;
  ipv4Range?: string;
}

type V4 = ipaddr.IPv4;
type V6 = ipaddr.IPv6;

const v4From = (hi: number, lo: number): V4 => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
const v6 = (cidr: string): [V6, number] => ipaddr.IPv6.parseCIDR(cidr);

const GLOBAL_UNICAST = v6('2000::/3');
const IPV4_COMPATIBLE = v6('::/96');
const IPV4_TRANSLATED = v6('::ffff:0:0:0/96');
const NAT64 = v6('64:ff9b::/96');
const SIXTOFOUR = v6('2002::/16');
const TEREDO = v6('2001::/32');

/**
 * Blocks inside 2000::/3 that are not the public internet. ipaddr.js knows them too (its range()
 * is checked as well); they are listed here so that a library update that drops one cannot open
 * it: the IANA IPv6 special-purpose registry, less the forms judged by their IPv4 address above.
 */
const IPV6_SPECIAL: Array<[string, [V6, number]]> = [
  ['ietfProtocolAssignments', v6('2001::/23')], // PCP/TURN/DNS-SD anycast, benchmarking, AMT, AS112, ORCHID, DETs
  ['documentation', v6('2001:db8::/32')],
  ['as112v6', v6('2620:4f:8000::/48')],
  ['documentation', v6('3fff::/20')],
];

function ipv4Verdict(address: V4): AddressVerdict {
  const range = address.range();
  return { forbidden: range !== 'unicast', range };
}

function judgedByIpv4(range: string, embedded: V4[]): AddressVerdict {
  // Teredo carries two addresses (relay server and client): the worst one decides.
  const verdicts = embedded.map((a) => ({ a, v: ipv4Verdict(a) }));
  const decisive = verdicts.find((x) => x.v.forbidden) ?? verdicts[0]!;
  return { forbidden: decisive.v.forbidden, range, ipv4: decisive.a.toString(), ipv4Range: decisive.v.range };
}

function ipv6Verdict(address: V6): AddressVerdict {
  const p = address.parts as [number, number, number, number, number, number, number, number];
  if (address.isIPv4MappedAddress()) return judgedByIpv4('ipv4Mapped', [address.toIPv4Address()]);
  const range = address.range();
  // ::1 and :: are inside ::/96 too: name them for what they are.
  if (range === 'loopback' || range === 'unspecified') return { forbidden: true, range };
  if (address.match(IPV4_COMPATIBLE)) return { forbidden: true, range: 'ipv4Compatible' };
  if (address.match(IPV4_TRANSLATED)) return { forbidden: true, range: 'ipv4Translated' };
  if (address.match(NAT64)) return judgedByIpv4('nat64', [v4From(p[6], p[7])]);
  if (address.match(SIXTOFOUR)) return judgedByIpv4('6to4', [v4From(p[1], p[2])]);
  if (address.match(TEREDO)) return judgedByIpv4('teredo', [v4From(p[2], p[3]), v4From(~p[6] & 0xffff, ~p[7] & 0xffff)]);
  if (!address.match(GLOBAL_UNICAST)) return { forbidden: true, range: range === 'unicast' ? 'reserved' : range };
  const special = IPV6_SPECIAL.find(([, cidr]) => address.match(cidr));
  if (special) return { forbidden: true, range: range === 'unicast' ? special[0] : range };
  return { forbidden: range !== 'unicast', range };
}

/**
 * ipaddr.js reads `::a.b.c.d` (IPv4-compatible) as `::ffff:a.b.c.d` (IPv4-mapped): hand it the
 * last 32 bits in hex instead, as the URL parser writes them. The literal was validated by isIP.
 */
function dottedTailToHex(ip: string): string {
  return ip.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a: string, b: string, c: string, d: string) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
}

/**
 * The verdict on one IP literal (IPv4 dotted quad or IPv6, with or without brackets or a zone id).
 * Anything else is forbidden: names must be resolved first, and odd IPv4 spellings (127.1,
 * 0x7f000001) never come out of the URL parser or DNS.
 */
export function classifyAddress(ip: string): AddressVerdict {
  const bare = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return ipv4Verdict(ipaddr.IPv4.parse(bare));
  if (family === 6) return ipv6Verdict(ipaddr.IPv6.parse(dottedTailToHex(bare)));
  return { forbidden: true, range: 'notAnAddress' };
}

/** True when the IP literal is anything but a public internet address (see classifyAddress). */
export function isForbiddenAddress(ip: string): boolean {
  return classifyAddress(ip).forbidden;
}

/**
 * Well-known non-HTTP services on ports >= 1024: the fetch standard's "bad ports" in that range
 * plus databases, caches, queues and remote desktops. None is in the kernel's ephemeral range
 * (32768-60999), where the test sinks listen.
 */
const NON_HTTP_PORTS = new Set([
  1080, // SOCKS
  1433, 1434, // Microsoft SQL Server
  1521, 2483, 2484, // Oracle
  1719, 1720, // H.323
  1723, // PPTP
  1883, 8883, // MQTT
  2049, // NFS
  2181, // ZooKeeper
  3306, // MySQL, MariaDB
  3389, // RDP
  3659, // Apple SASL
  4045, // NFS lock daemon
  4190, // ManageSieve
  4369, 25672, // Erlang port mapper, RabbitMQ distribution
  5060, 5061, // SIP
  5222, // XMPP
  5432, // PostgreSQL
  5672, // AMQP
  5900, // VNC
  6000, // X11
  6379, 26379, // Redis, Redis Sentinel
  6566, // SANE
  6665, 6666, 6667, 6668, 6669, 6679, 6697, // IRC
  7000, 7001, 9042, 9160, // Cassandra
  9092, // Kafka
  9300, // Elasticsearch transport
  10080, // Amanda
  11211, 11214, 11215, // memcached
  27017, 27018, 27019, // MongoDB
]);

/** Ports a webhook may use: 80, 443, and 1024-65535 except well-known non-HTTP services. */
export function isForbiddenWebhookPort(port: number): boolean {
  if (port === 80 || port === 443) return false;
  if (!Number.isInteger(port) || port < 1024 || port > 65535) return true;
  return NON_HTTP_PORTS.has(port);
}

export type WebhookUrlProblem = { code: 'WEBHOOK_URL_INVALID' | 'WEBHOOK_TARGET_FORBIDDEN'; message: string };

export const MAX_WEBHOOK_URL_LENGTH = 2048;

const FORBIDDEN_HOST_MESSAGE = 'Webhook URL points to a private network address, which is not allowed';

export const forbiddenPortMessage = (port: number) =>
  `Webhook URL uses port ${port}, which is not allowed (use 80, 443 or a port from 1024 to 65535 that is not a well-known non-HTTP service)`;

/**
 * Static checks on a webhook URL (no DNS): http(s), length, no credentials, an allowed port, and
 * no literal private address. The WHATWG parser already turns 2130706433, 0x7f.1 and 127.1 into
 * 127.0.0.1 and [::127.0.0.1] into [::7f00:1].
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
  if (!allowPrivateTargets) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const lowered = host.toLowerCase().replace(/\.$/, '');
    if (lowered === 'localhost' || lowered.endsWith('.localhost') || lowered.endsWith('.local') || lowered.endsWith('.internal')) {
      return { code: 'WEBHOOK_TARGET_FORBIDDEN', message: FORBIDDEN_HOST_MESSAGE };
    }
    if (isIP(host) && isForbiddenAddress(host)) return { code: 'WEBHOOK_TARGET_FORBIDDEN', message: FORBIDDEN_HOST_MESSAGE };
  }
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (isForbiddenWebhookPort(port)) return { code: 'WEBHOOK_TARGET_FORBIDDEN', message: forbiddenPortMessage(port) };
  return null;
}
