import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * Anything shaped like an API key (or its secret half) in a URL, percent-encoded or not. A key
 * pasted into a query string is refused, but the request line is still logged: it must not carry it.
 */
const KEY_SHAPE = 'qk(?:_|%5F)[0-9A-Za-z]{12}(?:_|%5F)[0-9A-Za-z]{43}';
const KEY_IN_URL = new RegExp(`${KEY_SHAPE}|(?<![0-9A-Za-z])[0-9A-Za-z]{43}(?![0-9A-Za-z])`, 'gi');
const WHOLE_KEY = new RegExp(KEY_SHAPE, 'i');

export function redactKeys(url: string): string {
  return url.replace(KEY_IN_URL, '[redacted]');
}

export function urlCarriesKey(url: string): boolean {
  return WHOLE_KEY.test(url);
}

/** Fastify's request serializer with the URL redacted; other logger settings are kept as given. */
export function withRedactedUrls(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  const options = logger === true ? {} : logger;
  return {
    ...options,
    serializers: {
      ...options.serializers,
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactKeys(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}
