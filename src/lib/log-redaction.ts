/**
 * Anything shaped like an API key (or its secret half) in a URL, percent-encoded or not. A key
 * pasted into a query string is refused, but the request line is still logged: it must not carry it.
 */
const KEY_SHAPE = 'qk(?:_|%5F)[0-9A-Za-z]{12}(?:_|%5F)[0-9A-Za-z]{43}';
const KEY_IN_URL = new RegExp(`${KEY_SHAPE}|(?<![0-9A-Za-z])[0-9A-Za-z]{43}(?![0-9A-Za-z])`, 'gi');
const WHOLE_KEY = new RegExp(KEY_SHAPE, 'i');

/** An invite token (base64url, so with - and _) in a personal link's path: /i/, /u/ or /r/v1/invites/. */
const INVITE_TOKEN_IN_PATH = /(\/(?:i|u|invites)\/)[A-Za-z0-9_-]{43,}/g;

export function redactKeys(url: string): string {
  return url.replace(KEY_IN_URL, '[redacted]').replace(INVITE_TOKEN_IN_PATH, '$1[redacted]');
}

export function urlCarriesKey(url: string): boolean {
  return WHOLE_KEY.test(url);
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
  raw?: unknown;
}

/**
 * The logger's `req` serializer: a Fastify request becomes method, redacted URL and peer; anything
 * else logged as `req` keeps its fields (and the logger's redact paths still apply to them).
 */
export function serializeRequest(req: LoggedRequest): Record<string, unknown> {
  if (req.raw === undefined) return { ...req, ...(typeof req.url === 'string' ? { url: redactKeys(req.url) } : {}) };
  return { method: req.method, url: redactKeys(req.url ?? ''), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}
