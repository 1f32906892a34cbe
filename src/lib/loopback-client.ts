import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** What a request shows of where it came from (a Fastify request has all three). */
export interface RequestOrigin {
  /** The client address as TRUST_PROXY resolves it. */
  ip: string;
  /** The connection's own peer, which no header can change. */
  socket: { remoteAddress?: string };
  headers: IncomingHttpHeaders;
}

/** 127.0.0.0/8 or ::1, IPv4-mapped spellings included; anything that is not an IP address is not. */
export function isLoopbackAddress(address: string): boolean {
  return isIP(address) !== 0 && ipaddr.process(address).range() === 'loopback';
}

/** `[::1]:8080` → `::1`, `127.0.0.1:8080` → `127.0.0.1`, quotes of RFC 7239 removed (request.ip keeps a header's spelling). */
function bareAddress(value: string): string {
  const unquoted = value.trim().replace(/^"(.*)"$/, '$1');
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(unquoted);
  if (bracketed) return bracketed[1];
  return /^[\d.]+:\d+$/.test(unquoted) ? unquoted.slice(0, unquoted.lastIndexOf(':')) : unquoted;
}

/** Every client address a proxy named: X-Forwarded-For entries and RFC 7239 Forwarded `for=` values. */
function forwardedAddresses(headers: IncomingHttpHeaders): string[] {
  const xff = [headers['x-forwarded-for'] ?? []].flat().flatMap((value) => value.split(','));
  const forwarded = (headers.forwarded ?? '')
    .split(/[,;]/)
    .flatMap((pair) => (/^\s*for\s*=/i.test(pair) ? [pair.slice(pair.indexOf('=') + 1)] : []));
  return [...xff, ...forwarded];
}

/**
 * A client on this machine: the connection's peer, the address TRUST_PROXY resolves, and every
 * address a proxy says it forwarded for are loopback. A proxy on this machine relaying someone
 * else is not a loopback client, however TRUST_PROXY is set; a spoofed header only narrows.
 */
export function isLoopbackClient(request: RequestOrigin): boolean {
  const hops = [request.ip, request.socket.remoteAddress ?? '', ...forwardedAddresses(request.headers)];
  return hops.every((hop) => isLoopbackAddress(bareAddress(hop)));
}
