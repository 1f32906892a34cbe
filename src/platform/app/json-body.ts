/**
 * The success envelope of ok() as UTF-8 JSON, around items that already are JSON text (a page
 * Postgres formatted). Sent as a Buffer with type application/json, it skips Fastify's schema
 * serializer; the route keeps its response schema for the OpenAPI document (and the tests check
 * each answer against it). Each item is encoded once into one Buffer sized beforehand: no joined
 * copy of a ≈200 KB page (bench/README.md, responses-scan).
 */
export function okJsonBody(items: string[], meta: Record<string, unknown>): Buffer {
  const head = '{"success":true,"data":[';
  const tail = `],"meta":${JSON.stringify(meta)}}`;
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(items.length - 1, 0);
  for (const item of items) size += Buffer.byteLength(item);
  const body = Buffer.allocUnsafe(size);
  let at = body.write(head, 0);
  for (const [index, item] of items.entries()) {
    if (index > 0) at = body.writeUInt8(0x2c, at); // ','
    at += body.write(item, at);
  }
  body.write(tail, at);
  return body;
}
