// Runs on SQLite only: how addresses are classified does not depend on the database (vitest.config.ts).
/**
 * The webhook address policy (server/net/address-policy.ts): one classification of IP addresses
 * used when a URL is saved or tested and again on every address a connection is about to use.
 *
 * The tables below follow the IANA IPv4 and IPv6 Special-Purpose Address Registries
 * (iana-ipv4-special-registry, iana-ipv6-special-registry), one row per registered block, plus
 * the blocks outside them that are not the public internet either (multicast, site-local, the
 * IPv4-compatible and IPv4-translated forms, IPv6 space outside 2000::/3). Every registered block
 * is refused, whatever its "globally reachable" flag: no webhook receiver lives on an anycast
 * protocol address. The forms that carry an IPv4 address (IPv4-mapped, NAT64 64:ff9b::/96,
 * 6to4, Teredo) are judged by the IPv4 address they lead to.
 */
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWebhookUrl, classifyAddress, isForbiddenAddress, isForbiddenWebhookPort } from '../../../../server/net/address-policy.ts';
import { ForbiddenTargetError, guardedConnector, guardedLookup } from '../../../../server/net/ssrf-guard.ts';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

type Row = [block: string, name: string, forbidden: string[], allowed?: string[]];

const IPV4_REGISTRY: Row[] = [
  ['0.0.0.0/8', '"This network"', ['0.0.0.0', '0.0.0.1', '0.1.2.3', '0.255.255.255']],
  ['0.0.0.0/32', '"This host on this network"', ['0.0.0.0']],
  ['10.0.0.0/8', 'Private-Use', ['10.0.0.0', '10.0.0.1', '10.255.255.255']],
  ['100.64.0.0/10', 'Shared Address Space (CGNAT)', ['100.64.0.0', '100.100.100.200', '100.127.255.255']],
  ['127.0.0.0/8', 'Loopback', ['127.0.0.1', '127.0.0.0', '127.1.2.3', '127.255.255.255']],
  ['169.254.0.0/16', 'Link Local (cloud metadata)', ['169.254.169.254', '169.254.0.0', '169.254.255.255']],
  ['172.16.0.0/12', 'Private-Use', ['172.16.0.0', '172.20.1.1', '172.31.255.255']],
  ['192.0.0.0/24', 'IETF Protocol Assignments', ['192.0.0.0', '192.0.0.100', '192.0.0.255']],
  ['192.0.0.0/29', 'IPv4 Service Continuity Prefix', ['192.0.0.1', '192.0.0.7']],
  ['192.0.0.8/32', 'IPv4 dummy address', ['192.0.0.8']],
  ['192.0.0.9/32', 'Port Control Protocol Anycast', ['192.0.0.9']],
  ['192.0.0.10/32', 'Traversal Using Relays around NAT Anycast', ['192.0.0.10']],
  ['192.0.0.170/32', 'NAT64/DNS64 Discovery', ['192.0.0.170']],
  ['192.0.0.171/32', 'NAT64/DNS64 Discovery', ['192.0.0.171']],
  ['192.0.2.0/24', 'Documentation (TEST-NET-1)', ['192.0.2.0', '192.0.2.1', '192.0.2.255']],
  ['192.31.196.0/24', 'AS112-v4', ['192.31.196.1', '192.31.196.255']],
  ['192.52.193.0/24', 'AMT', ['192.52.193.1', '192.52.193.255']],
  ['192.88.99.0/24', 'Deprecated (6to4 Relay Anycast)', ['192.88.99.1', '192.88.99.255']],
  ['192.168.0.0/16', 'Private-Use', ['192.168.0.0', '192.168.1.1', '192.168.255.255']],
  ['192.175.48.0/24', 'Direct Delegation AS112 Service', ['192.175.48.1', '192.175.48.255']],
  ['198.18.0.0/15', 'Benchmarking', ['198.18.0.0', '198.19.255.255']],
  ['198.51.100.0/24', 'Documentation (TEST-NET-2)', ['198.51.100.0', '198.51.100.255']],
  ['203.0.113.0/24', 'Documentation (TEST-NET-3)', ['203.0.113.0', '203.0.113.255']],
  ['240.0.0.0/4', 'Reserved', ['240.0.0.0', '250.1.2.3', '255.255.255.254']],
  ['255.255.255.255/32', 'Limited Broadcast', ['255.255.255.255']],
];

const IPV4_OTHER: Row[] = [['224.0.0.0/4', 'Multicast (not in the special-purpose registry)', ['224.0.0.0', '224.0.0.1', '239.255.255.255']]];

/** Just outside each block, and well-known public resolvers: these must stay reachable. */
const IPV4_PUBLIC = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.216.34',
  '1.0.0.0',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '191.255.255.255',
  '192.0.1.0',
  '192.0.3.0',
  '192.31.195.255',
  '192.31.197.0',
  '192.52.192.255',
  '192.52.194.0',
  '192.88.98.255',
  '192.88.100.0',
  '192.167.255.255',
  '192.169.0.0',
  '192.175.47.255',
  '192.175.49.0',
  '198.17.255.255',
  '198.20.0.0',
  '198.51.99.255',
  '198.51.101.0',
  '203.0.112.255',
  '203.0.114.0',
  '223.255.255.255',
];

// Teredo: 2001:0000:<server IPv4>:<flags>:<port ^ 0xffff>:<client IPv4 ^ 0xffffffff>.
// Server 65.54.227.120 is 4136:e378.
const teredo = (client: string, server = '4136:e378') => {
  const [a, b, c, d] = client.split('.').map(Number) as [number, number, number, number];
  const hex = (n: number) => (n ^ 0xffff).toString(16);
  return `2001:0:${server}:8000:63bf:${hex((a << 8) | b)}:${hex((c << 8) | d)}`;
};

const IPV6_REGISTRY: Row[] = [
  ['::1/128', 'Loopback Address', ['::1']],
  ['::/128', 'Unspecified Address', ['::']],
  [
    '::ffff:0:0/96',
    'IPv4-mapped Address (judged by its IPv4)',
    ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '::ffff:192.168.1.1', '::ffff:0.0.0.0', '::ffff:100.64.0.1', '::ffff:224.0.0.1'],
    ['::ffff:8.8.8.8', '::ffff:93.184.216.34'],
  ],
  [
    '64:ff9b::/96',
    'IPv4-IPv6 Translat. (NAT64, judged by its IPv4)',
    ['64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b::192.168.0.1', '64:ff9b::', '64:ff9b::ffff:ffff'],
    ['64:ff9b::8.8.8.8', '64:ff9b::5db8:d822'],
  ],
  ['64:ff9b:1::/48', 'IPv4-IPv6 Translat. (local-use NAT64)', ['64:ff9b:1::1', '64:ff9b:1::8.8.8.8', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff']],
  ['100::/64', 'Discard-Only Address Block', ['100::', '100::1', '100::ffff:ffff:ffff:ffff']],
  ['100:0:0:1::/64', 'Dummy IPv6 Prefix', ['100:0:0:1::', '100:0:0:1::1']],
  ['2001::/23', 'IETF Protocol Assignments', ['2001:100::1', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:5::1']],
  [
    '2001::/32',
    'TEREDO (judged by its server and client IPv4)',
    [teredo('127.0.0.1'), teredo('10.0.0.1'), teredo('169.254.169.254'), teredo('192.168.1.20'), teredo('8.8.8.8', '0a00:0001'), teredo('8.8.8.8', '7f00:0001'), '2001::', '2001::1'],
    [teredo('8.8.8.8'), teredo('93.184.216.34')],
  ],
  ['2001:1::1/128', 'Port Control Protocol Anycast', ['2001:1::1']],
  ['2001:1::2/128', 'Traversal Using Relays around NAT Anycast', ['2001:1::2']],
  ['2001:1::3/128', 'DNS-SD Service Registration Protocol Anycast', ['2001:1::3']],
  ['2001:2::/48', 'Benchmarking', ['2001:2::', '2001:2::1', '2001:2:0:ffff:ffff:ffff:ffff:ffff']],
  ['2001:3::/32', 'AMT', ['2001:3::1', '2001:3:ffff::1']],
  ['2001:4:112::/48', 'AS112-v6', ['2001:4:112::1', '2001:4:112:ffff::1']],
  ['2001:10::/28', 'Deprecated (previously ORCHID)', ['2001:10::1', '2001:1f:ffff::1']],
  ['2001:20::/28', 'ORCHIDv2', ['2001:20::1', '2001:2f:ffff::1']],
  ['2001:30::/28', 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', ['2001:30::1', '2001:3f:ffff::1']],
  ['2001:db8::/32', 'Documentation', ['2001:db8::', '2001:db8::1', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff']],
  [
    '2002::/16',
    '6to4 (judged by its IPv4)',
    ['2002:7f00:1::1', '2002:7f00:0001::', '2002:a9fe:a9fe::1', '2002:c0a8:101::1', '2002:a00:1::1', '2002::1', '2002:e000:1::1'],
    ['2002:808:808::1', '2002:5db8:d822::1'],
  ],
  ['2620:4f:8000::/48', 'Direct Delegation AS112 Service', ['2620:4f:8000::1', '2620:4f:8000:ffff::1']],
  ['3fff::/20', 'Documentation', ['3fff::1', '3fff:fff:ffff::1']],
  ['5f00::/16', 'Segment Routing (SRv6) SIDs', ['5f00::1', '5f00:ffff::1']],
  ['fc00::/7', 'Unique-Local', ['fc00::', 'fc00::1', 'fd00::1', 'fd12:3456:789a::1', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['fe80::/10', 'Link-Local Unicast', ['fe80::', 'fe80::1', 'febf:ffff::1']],
];

const IPV6_OTHER: Row[] = [
  ['ff00::/8', 'Multicast', ['ff02::1', 'ff05::1:3', 'ff0e::1']],
  ['fec0::/10', 'Site-local (deprecated)', ['fec0::1', 'feff::1']],
  ['::/96', 'IPv4-compatible (deprecated), whatever its IPv4', ['::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::10.0.0.1', '::8.8.8.8', '::2']],
  ['::ffff:0:0:0/96', 'IPv4-translated, whatever its IPv4', ['::ffff:0:7f00:1', '::ffff:0:a9fe:a9fe', '::ffff:0:127.0.0.1', '::ffff:0:808:808']],
  ['outside 2000::/3', 'Not global unicast (reserved by IETF)', ['1::1', '400::1', '4000::1', '8000::1', 'e000::1', 'fe00::1', '::1:0:0:1']],
];

const IPV6_PUBLIC = [
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4007:80e::200e',
  '2001:200::1',
  '2003::1',
  '2620:4f:7fff:ffff::1',
  '2620:4f:8001::1',
  '3ffe:ffff::1',
  '3fff:1000::1',
];

const allRows = [...IPV4_REGISTRY, ...IPV4_OTHER, ...IPV6_REGISTRY, ...IPV6_OTHER];
const forbiddenCases = allRows.flatMap(([block, name, forbidden]) => forbidden.map((ip) => [ip, `${block} ${name}`] as const));
const allowedCases = [
  ...allRows.flatMap(([block, name, , allowed = []]) => allowed.map((ip) => [ip, `${block} ${name}`] as const)),
  ...IPV4_PUBLIC.map((ip) => [ip, 'public IPv4'] as const),
  ...IPV6_PUBLIC.map((ip) => [ip, 'public IPv6'] as const),
];
const hostOf = (ip: string) => (ip.includes(':') ? `[${ip}]` : ip);
const FORBIDDEN_URL = { code: 'WEBHOOK_TARGET_FORBIDDEN', message: 'Webhook URL points to a private network address, which is not allowed' };

describe('address classification (IANA special-purpose registries)', () => {
  it.each(forbiddenCases)('refuses %s (%s)', (ip) => {
    const verdict = classifyAddress(ip);
    expect(verdict.forbidden, JSON.stringify(verdict)).toBe(true);
    expect(isForbiddenAddress(ip)).toBe(true);
    // The same verdict whatever the spelling: bracketed, upper case, with a zone id.
    expect(isForbiddenAddress(`[${ip}]`)).toBe(true);
    expect(isForbiddenAddress(ip.toUpperCase())).toBe(true);
    // At the API, whatever the URL spelling (the WHATWG parser rewrites IPv6 and IPv4 forms).
    expect(checkWebhookUrl(`http://${hostOf(ip)}/hook`, false)).toEqual(FORBIDDEN_URL);
    expect(checkWebhookUrl(`https://${hostOf(ip)}:8443/hook`, false)).toEqual(FORBIDDEN_URL);
  });

  it.each(allowedCases)('allows %s (%s)', (ip) => {
    const verdict = classifyAddress(ip);
    expect(verdict.forbidden, JSON.stringify(verdict)).toBe(false);
    expect(checkWebhookUrl(`https://${hostOf(ip)}/hook`, false)).toBeNull();
  });

  it('names the range and the embedded IPv4 address it judged', () => {
    expect(classifyAddress('::7f00:1')).toMatchObject({ forbidden: true, range: 'ipv4Compatible' });
    expect(classifyAddress('::ffff:127.0.0.1')).toMatchObject({ forbidden: true, range: 'ipv4Mapped', ipv4: '127.0.0.1', ipv4Range: 'loopback' });
    expect(classifyAddress('64:ff9b::a9fe:a9fe')).toMatchObject({ forbidden: true, range: 'nat64', ipv4: '169.254.169.254', ipv4Range: 'linkLocal' });
    expect(classifyAddress('2002:c0a8:101::1')).toMatchObject({ forbidden: true, range: '6to4', ipv4: '192.168.1.1', ipv4Range: 'private' });
    expect(classifyAddress(teredo('10.0.0.1'))).toMatchObject({ forbidden: true, range: 'teredo', ipv4: '10.0.0.1', ipv4Range: 'private' });
    expect(classifyAddress('2002:808:808::1')).toMatchObject({ forbidden: false, range: '6to4', ipv4: '8.8.8.8', ipv4Range: 'unicast' });
    expect(classifyAddress('8.8.8.8')).toEqual({ forbidden: false, range: 'unicast' });
    expect(classifyAddress('fe80::1%eth0')).toMatchObject({ forbidden: true, range: 'linkLocal' });
  });

  it('treats anything that is not an IP literal as forbidden (the caller must resolve names first)', () => {
    for (const value of ['', 'localhost', 'example.com', '127.1', '0x7f000001', '2130706433', '::ffff:127.0.0.1:80', '1.2.3.4.5', '[::1']) {
      expect(isForbiddenAddress(value), value).toBe(true);
    }
  });

  it('the issue examples are refused at the API in every spelling', () => {
    for (const url of [
      'http://[::127.0.0.1]/',
      'http://[::7f00:1]/',
      'http://[::a9fe:a9fe]/',
      'http://[::169.254.169.254]/latest/meta-data/',
      'http://[::ffff:0:7f00:1]/',
      'http://[::ffff:0:a9fe:a9fe]/',
      'http://[::ffff:0:127.0.0.1]/',
      `http://[${teredo('127.0.0.1')}]/`,
      `http://[${teredo('169.254.169.254')}]/`,
      'http://[2002:7f00:1::]/',
      'http://[2002:a9fe:a9fe::]/',
      'http://[64:ff9b::127.0.0.1]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[64:ff9b::10.1.2.3]/',
    ]) {
      expect(checkWebhookUrl(url, false), url).toEqual(FORBIDDEN_URL);
      // With private targets allowed (trusted setups, the test suite) the address rule is off.
      expect(checkWebhookUrl(url, true), url).toBeNull();
    }
  });
});

describe('webhook ports', () => {
  const REFUSED = [0, 1, 7, 19, 21, 22, 23, 25, 53, 110, 111, 135, 139, 143, 179, 389, 445, 465, 514, 587, 631, 636, 873, 993, 995, 1023, 1433, 1521, 2049, 3306, 3389, 5060, 5432, 5672, 5900, 6000, 6379, 6667, 9042, 11211, 27017];
  const ALLOWED = [80, 443, 1024, 3000, 5000, 8000, 8080, 8443, 8888, 9000, 32768, 49152, 60999, 65535];

  it.each(REFUSED)('refuses port %i, with private targets allowed or not', (port) => {
    expect(isForbiddenWebhookPort(port)).toBe(true);
    const expected = { code: 'WEBHOOK_TARGET_FORBIDDEN', message: `Webhook URL uses port ${port}, which is not allowed (use 80, 443 or a port from 1024 to 65535 that is not a well-known non-HTTP service)` };
    expect(checkWebhookUrl(`http://hooks.example.com:${port}/x`, false)).toEqual(expected);
    expect(checkWebhookUrl(`https://hooks.example.com:${port}/x`, true)).toEqual(expected);
    expect(checkWebhookUrl(`http://127.0.0.1:${port}/x`, true)).toEqual(expected);
  });

  it.each(ALLOWED)('allows port %i', (port) => {
    expect(isForbiddenWebhookPort(port)).toBe(false);
    expect(checkWebhookUrl(`http://hooks.example.com:${port}/x`, false)).toBeNull();
    expect(checkWebhookUrl(`http://127.0.0.1:${port}/x`, true)).toBeNull();
  });

  it('allows the default ports, written or not', () => {
    for (const url of ['http://hooks.example.com/x', 'https://hooks.example.com/x', 'http://hooks.example.com:80/x', 'https://hooks.example.com:443/x', 'http://hooks.example.com:443/x', 'https://hooks.example.com:80/x']) {
      expect(checkWebhookUrl(url, false), url).toBeNull();
    }
  });

  it('leaves no refused port in the ephemeral range the test sinks listen on', () => {
    for (let port = 32768; port <= 60999; port++) if (isForbiddenWebhookPort(port)) throw new Error(`port ${port} is refused`);
  });
});

describe('the same policy at connect time', () => {
  const connectWith = (connector: ReturnType<typeof guardedConnector>, hostname: string, port: string, protocol = 'http:') =>
    new Promise<Error | null>((resolve) => {
      connector({ hostname, host: hostname, protocol, port, servername: undefined } as never, (err, socket) => {
        socket?.destroy();
        resolve(err);
      });
    });

  it.each(forbiddenCases)('the connector refuses the literal %s (%s) before connecting', async (ip) => {
    const err = await connectWith(guardedConnector({ allowPrivateTargets: false }), hostOf(ip), '8080');
    expect(err).toBeInstanceOf(ForbiddenTargetError);
    expect(err!.message).toMatch(/^Webhook target resolves to a private network address \(.+\), which is not allowed$/);
  });

  it.each(forbiddenCases)('a DNS answer of %s (%s) is refused for the whole name', async (ip) => {
    const fakeDns = (_host: string, _opts: unknown, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) =>
      cb(null, [
        { address: '93.184.216.34', family: 4 },
        { address: ip, family: ip.includes(':') ? 6 : 4 },
      ]);
    const result = await new Promise<{ err: Error | null }>((resolve) => guardedLookup(fakeDns)('hooks.example.test', { all: true }, (err) => resolve({ err })));
    expect(result.err).toBeInstanceOf(ForbiddenTargetError);
  });

  it('the connector refuses a forbidden port, with private targets allowed or not', async () => {
    for (const allowPrivateTargets of [false, true]) {
      const connector = guardedConnector({ allowPrivateTargets });
      for (const port of ['22', '6379', '11211', '25']) {
        const err = await connectWith(connector, '93.184.216.34', port);
        expect(err).toBeInstanceOf(ForbiddenTargetError);
        expect(err!.message).toBe(`Webhook target port ${port} is not allowed`);
      }
    }
  });
});

describe('webhook URLs over the API (private targets refused)', () => {
  let server: TestServer;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    server = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }, overrides: { schedulerEnabled: false } });
    user = await signUp(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  const body = (url: string) => ({ date: '2030-07-01', time: '09:00', message: 'ssrf', destinations: [{ type: 'webhook', metadata: { url } }] });

  it.each([
    'http://[::127.0.0.1]/',
    'http://[::a9fe:a9fe]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[::ffff:0:a9fe:a9fe]/',
    `http://[${teredo('127.0.0.1')}]/`,
    'http://[2002:7f00:1::1]/',
    'http://[2002:a9fe:a9fe::]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[64:ff9b::a9fe:a9fe]/',
  ])('refuses %s on create, update and test', async (url) => {
    const created = await user.api.post('/api/reminders', body(url));
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ error: FORBIDDEN_URL.message, code: 'WEBHOOK_TARGET_FORBIDDEN', destination: 0 });

    const ok = await user.api.post('/api/reminders', body('https://hooks.example.com/ok'));
    expect(ok.status).toBe(201);
    const updated = await user.api.put(`/api/reminders/${ok.body.id}`, body(url));
    expect(updated.status).toBe(400);
    expect(updated.body.code).toBe('WEBHOOK_TARGET_FORBIDDEN');

    const tested = await user.api.post('/api/webhooks/test', { url, platform: 'generic' });
    expect(tested.status).toBe(400);
    expect(tested.body.code).toBe('WEBHOOK_TARGET_FORBIDDEN');
  });

  it('refuses a well-known non-HTTP port and accepts 80, 443 and high ports', async () => {
    for (const port of [22, 25, 6379, 5432, 3306, 11211, 21, 1023]) {
      const res = await user.api.post('/api/reminders', body(`http://hooks.example.com:${port}/x`));
      expect(res.status, String(port)).toBe(400);
      expect(res.body.code).toBe('WEBHOOK_TARGET_FORBIDDEN');
      expect(res.body.error).toMatch(new RegExp(`port ${port}\\b`));
    }
    for (const port of [80, 443, 1024, 8080, 65535]) {
      const res = await user.api.post('/api/reminders', body(`http://hooks.example.com:${port}/x`));
      expect(res.status, String(port)).toBe(201);
    }
  });
});

describe('webhook ports with private targets allowed (the test-suite setting)', () => {
  let server: TestServer;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    server = await startTestServer({ overrides: { schedulerEnabled: false } });
    user = await signUp(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('still refuses a non-HTTP port on 127.0.0.1 and accepts a high one', async () => {
    const refused = await user.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message: 'redis', destinations: [{ type: 'webhook', metadata: { url: 'http://127.0.0.1:6379/' } }] });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('WEBHOOK_TARGET_FORBIDDEN');
    const accepted = await user.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message: 'sink', destinations: [{ type: 'webhook', metadata: { url: 'http://127.0.0.1:45678/' } }] });
    expect(accepted.status).toBe(201);
  });
});
