import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { isForbiddenAddress, isForbiddenWebhookPort } from './address-policy.ts';

/** Raised at connect time when a webhook target is (or resolves to) a non-public address, or uses a refused port. */
export class ForbiddenTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_FORBIDDEN';
  constructor(
    public readonly address: string,
    message = `Webhook target resolves to a private network address (${address}), which is not allowed`,
  ) {
    super(message);
    this.name = 'ForbiddenTargetError';
  }
}

/** The port undici will connect to: the URL's, or the scheme's default. */
function effectivePort(port: string | number | undefined | null, protocol: string | undefined): number {
  const n = Number(port);
  return port === '' || port === undefined || port === null || Number.isNaN(n) ? (protocol === 'https:' ? 443 : 80) : n;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type LookupFunction = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

type RawLookup = (hostname: string, options: LookupOptions & { all: true }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A `lookup` for net.connect that resolves every address of the name and refuses the whole name
 * when any of them is forbidden: checking only the one picked would let a name that answers
 * [public, 127.0.0.1] through on the second try (or under happy-eyeballs).
 */
export function guardedLookup(resolve: RawLookup = dns.lookup as unknown as RawLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const forbidden = addresses.find((a) => isForbiddenAddress(a.address));
      if (forbidden) return callback(new ForbiddenTargetError(forbidden.address) as NodeJS.ErrnoException, []);
      if (addresses.length === 0) {
        const e = new Error(`getaddrinfo ENOTFOUND ${hostname}`) as NodeJS.ErrnoException;
        e.code = 'ENOTFOUND';
        return callback(e, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

export interface GuardOptions {
  allowPrivateTargets: boolean;
  /** TCP/TLS connect timeout. */
  connectTimeoutMs?: number;
  /** Replaceable for tests (a fake DNS that answers a private address for a public-looking name). */
  lookup?: RawLookup;
}

/**
 * An undici connector that enforces the address policy on the address actually connected to,
 * after DNS: the URL check at the API cannot see what a name will resolve to at send time.
 * IP literals never reach `lookup` (net.connect skips DNS for them), so they are checked here.
 * The port policy holds in both modes (a URL saved before it existed must not reach Redis either).
 */
export function guardedConnector({ allowPrivateTargets, connectTimeoutMs = 10_000, lookup }: GuardOptions): buildConnector.connector {
  const inner = allowPrivateTargets
    ? buildConnector({ timeout: connectTimeoutMs })
    : buildConnector({ timeout: connectTimeoutMs, lookup: guardedLookup(lookup) as never });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    const port = effectivePort(options.port, options.protocol);
    if (isForbiddenWebhookPort(port)) {
      callback(new ForbiddenTargetError(host, `Webhook target port ${port} is not allowed`), null);
      return;
    }
    if (!allowPrivateTargets && isIP(host) && isForbiddenAddress(host)) {
      callback(new ForbiddenTargetError(host), null);
      return;
    }
    inner(options, callback);
  };
}

export interface GuardedAgentOptions extends GuardOptions {
  /** Connections kept per origin (the per-host concurrency ceiling). */
  connectionsPerOrigin?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
}

/** The dispatcher every outgoing webhook request goes through. */
export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  return new Agent({
    connect: guardedConnector(options),
    connections: options.connectionsPerOrigin ?? 32,
    headersTimeout: options.headersTimeoutMs ?? 10_000,
    bodyTimeout: options.bodyTimeoutMs ?? 10_000,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    // Never pipeline: a slow answer must not hold the next request on the same socket.
    pipelining: 1,
  });
}
