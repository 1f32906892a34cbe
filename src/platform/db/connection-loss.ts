/**
 * Whether a failed query failed because its connection went away, not because of the statement:
 * the server shutting down or restarting (57P01 to 57P03: a replica stopped under a running scan),
 * a connection exception (class 08), the socket closed under node-pg, or a hot standby cancelling
 * the statement for replay (40001 "conflict with recovery"). Repeating the request works (the
 * replica's pool falls back to the primary), so the API's 500 carries retry-after
 * and the log says warn, not error.
 * Drizzle wraps the driver's error: the causes are walked.
 */
export function isConnectionLoss(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (/^57P0[1-3]$/.test(code) || code.startsWith('08') || ['ECONNRESET', 'ECONNREFUSED', 'EPIPE'].includes(code))) return true;
    if (code === '40001' && e.message.includes('conflict with recovery')) return true;
    if (e.message.startsWith('Connection terminated')) return true;
  }
  return false;
}
