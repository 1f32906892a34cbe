import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type * as Undici from 'undici';
import type { Agent, buildConnector } from 'undici';
import type { Config } from '../config.js';
import { lazyRequire } from '../../lib/lazy-require.js';

// Every context reaches this module (webhook fan-out); only a sending worker builds an agent.
const undici = lazyRequire<typeof Undici>('undici');

// ---------------------------------------------------------------------------------------------
// URL validation: the cheap syntactic check when a company saves an outbound URL (a webhook
// subscription, a WhatsApp gateway). It cannot decide where a host points (DNS changes), so the
// authoritative check runs again at connect time below.

export const MAX_TARGET_URL_LENGTH = 2048;

export type TargetUrlCode = 'too_long' | 'invalid_url' | 'unsupported_scheme' | 'credentials_not_allowed' | 'missing_host';

export type TargetUrlResult = { ok: true; url: URL } | { ok: false; code: TargetUrlCode; message: string };

export function validateTargetUrl(raw: string): TargetUrlResult {
  if (raw.length > MAX_TARGET_URL_LENGTH) {
    return { ok: false, code: 'too_long', message: `The URL must be at most ${MAX_TARGET_URL_LENGTH} characters.` };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, code: 'invalid_url', message: 'The URL is not a valid absolute URL.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, code: 'unsupported_scheme', message: 'The URL must use http or https.' };
  }
  if (url.username || url.password) {
    // Credentials would be stored and logged with the URL; receivers verify the signature instead.
    return { ok: false, code: 'credentials_not_allowed', message: 'The URL must not contain a user name or password.' };
  }
  if (!url.hostname) return { ok: false, code: 'missing_host', message: 'The URL must name a host.' };
  return { ok: true, url };
}

// ---------------------------------------------------------------------------------------------
// Address policy. Written out range by range (rather than trusting ipaddr's range names) so a
// reader can audit exactly what is refused. Parsed on first use, not at import: every CLI command's
// context reaches this module, and parsing the ranges was a visible part of its start-up.

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

const FORBIDDEN_IPV4 = [
  '0.0.0.0/8', // "this network", includes unspecified 0.0.0.0
  '10.0.0.0/8', // private (RFC 1918)
  '100.64.0.0/10', // carrier-grade NAT (RFC 6598); also Alibaba's metadata 100.100.100.200
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, includes the cloud metadata address 169.254.169.254
  '172.16.0.0/12', // private (RFC 1918)
  '192.0.0.0/24', // IETF protocol assignments (RFC 6890)
  '192.0.2.0/24', // documentation TEST-NET-1
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16', // private (RFC 1918)
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation TEST-NET-2
  '203.0.113.0/24', // documentation TEST-NET-3
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, includes broadcast 255.255.255.255
];

const FORBIDDEN_IPV6 = [
  '::/128', // unspecified
  '::1/128', // loopback
  '::/96', // deprecated IPv4-compatible addresses
  '64:ff9b:1::/48', // local-use NAT64 (RFC 8215): translates into private networks
  '100::/64', // discard-only
  '2001::/23', // IETF protocol assignments: Teredo, benchmarking, ORCHID...
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation (RFC 9637)
  '5f00::/16', // segment routing (RFC 9602)
  'fc00::/7', // unique local, includes AWS metadata fd00:ec2::254
  'fe80::/10', // link-local
  'fec0::/10', // deprecated site-local
  'ff00::/8', // multicast
];

/** Everything publicly routable in IPv6 lies in 2000::/3; the rest is special or unallocated. */
const IPV6_GLOBAL_UNICAST = '2000::/3';

/** Prefixes that carry an IPv4 address a packet may end up at; that address is judged instead. */
const IPV4_EMBEDDINGS: { range: string; embedded: (bytes: number[]) => number[] }[] = [
  { range: '::ffff:0:0/96', embedded: (b) => b.slice(12, 16) }, // IPv4-mapped
  { range: '::ffff:0:0:0/96', embedded: (b) => b.slice(12, 16) }, // IPv4-translated (RFC 6145)
  { range: '64:ff9b::/96', embedded: (b) => b.slice(12, 16) }, // well-known NAT64 (RFC 6052)
  { range: '2002::/16', embedded: (b) => b.slice(2, 6) }, // 6to4 (RFC 3056)
];

let parsed: { ipv4: Cidr[]; ipv6: Cidr[]; globalUnicast: Cidr; embeddings: { range: Cidr; embedded: (bytes: number[]) => number[] }[] } | undefined;

function policy(): NonNullable<typeof parsed> {
  parsed ??= {
    ipv4: FORBIDDEN_IPV4.map((range) => ipaddr.parseCIDR(range)),
    ipv6: FORBIDDEN_IPV6.map((range) => ipaddr.parseCIDR(range)),
    globalUnicast: ipaddr.parseCIDR(IPV6_GLOBAL_UNICAST),
    embeddings: IPV4_EMBEDDINGS.map(({ range, embedded }) => ({ range: ipaddr.parseCIDR(range), embedded })),
  };
  return parsed;
}

const inAny = (address: ipaddr.IPv4 | ipaddr.IPv6, ranges: Cidr[]) =>
  ranges.some(([network, bits]) => address.kind() === network.kind() && address.match(network, bits));

function isForbiddenIpv4(address: ipaddr.IPv4): boolean {
  return inAny(address, policy().ipv4);
}

function isForbiddenIpv6(address: ipaddr.IPv6): boolean {
  const { embeddings, ipv6, globalUnicast } = policy();
  const embedding = embeddings.find(({ range }) => inAny(address, [range]));
  if (embedding) return isForbiddenIpv4(new ipaddr.IPv4(embedding.embedded(address.toByteArray())));
  return inAny(address, ipv6) || !address.match(globalUnicast);
}

/** True when nothing may be sent to this address. Anything that is not an IP fails closed. */
export function isForbiddenAddress(ip: string): boolean {
  if (isIP(ip) === 0) return true;
  const address = ipaddr.parse(ip);
  return address.kind() === 'ipv4' ? isForbiddenIpv4(address as ipaddr.IPv4) : isForbiddenIpv6(address as ipaddr.IPv6);
}

// ---------------------------------------------------------------------------------------------
// Connect-time guard. The check runs inside the connection step, on the very addresses the socket
// then uses, so a host re-pointed (DNS rebinding) between validation and delivery is still caught.

export class TargetForbiddenError extends Error {
  readonly code = 'TARGET_FORBIDDEN';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      host === address
        ? `Target ${address} is a loopback, private, link-local, metadata or reserved address; refused.`
        : `Target ${host} resolves to ${address}, a loopback, private, link-local, metadata or reserved address; refused.`,
    );
    this.name = 'TargetForbiddenError';
  }
}

/** Resolves a host name to every address it has; injectable so tests can play a DNS server. */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

const resolveWithSystem: ResolveHost = (hostname) => dnsLookup(hostname, { all: true });

export interface GuardedDispatcherOptions extends Omit<Agent.Options, 'connect'> {
  /** Operator allow-list for development and tests: every address is allowed. */
  allowPrivate: boolean;
  connectTimeoutMs?: number;
  resolveHost?: ResolveHost;
}

function refuseForbidden(host: string, addresses: string[], allowPrivate: boolean): void {
  if (allowPrivate) return;
  const forbidden = addresses.find(isForbiddenAddress);
  if (forbidden !== undefined) throw new TargetForbiddenError(host, forbidden);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect: resolves once, refuses if ANY address is forbidden (one bad
 * record is enough for an attacker who controls the zone), and hands the socket exactly the
 * vetted addresses. TLS keeps the original host name for SNI and certificate checks.
 */
function guardedLookup(resolveHost: ResolveHost, allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const vetted = async (): Promise<LookupAddress[]> => {
      const resolved = await resolveHost(hostname);
      refuseForbidden(hostname, resolved.map((entry) => entry.address), allowPrivate);
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const usable = family ? resolved.filter((entry) => entry.family === family) : resolved;
      if (usable.length === 0) throw Object.assign(new Error(`No address found for ${hostname}`), { code: 'ENOTFOUND' });
      return usable;
    };
    // Two-argument then: the callback runs exactly once, never again from a catch.
    vetted().then(
      (usable) => (options.all ? callback(null, usable) : callback(null, usable[0].address, usable[0].family)),
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}

/**
 * The undici Agent every request to a company-set URL goes through. Host names are vetted by the
 * lookup above; an IP literal skips lookup in net.connect, so it is vetted here before connecting.
 */
export function createGuardedDispatcher(options: GuardedDispatcherOptions): Agent {
  const { allowPrivate, connectTimeoutMs = 10_000, resolveHost = resolveWithSystem, ...agentOptions } = options;
  const { Agent, buildConnector } = undici();
  const connectVetted = buildConnector({ timeout: connectTimeoutMs, lookup: guardedLookup(resolveHost, allowPrivate) });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const { hostname } = connectOptions;
    try {
      if (isIP(hostname)) refuseForbidden(hostname, [hostname], allowPrivate);
    } catch (err) {
      callback(err as Error, null);
      return;
    }
    connectVetted(connectOptions, callback);
  };
  return new Agent({ ...agentOptions, connect });
}

/** The guard's refusal, however deep the HTTP client wrapped it; null for any other failure. */
export function targetRefusal(err: unknown): TargetForbiddenError | null {
  for (let e = err; e instanceof Error; e = e.cause) if (e instanceof TargetForbiddenError) return e;
  return null;
}

/**
 * The dispatcher of every outbound kind (webhooks, WhatsApp): one policy for every URL a company
 * can set, lifted only by the operator's WEBHOOK_ALLOW_PRIVATE_TARGETS.
 */
export function outboundDispatcher(config: Pick<Config, 'webhookAllowPrivateTargets'>, connectTimeoutMs: number): Agent {
  return createGuardedDispatcher({ allowPrivate: config.webhookAllowPrivateTargets, connectTimeoutMs });
}
