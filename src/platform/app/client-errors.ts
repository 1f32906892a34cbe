import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from '../../lib/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import { ERROR_STATUS } from './error-status.js';

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers or URL over 16 KiB,
 * bytes that are not HTTP, a request that never completes); Fastify would then write a bare body.
 * This writes the same refusal in the error envelope with a fresh x-request-id and closes. The status
 * is the code's, from the one code→status table (so oversized headers are 413, not HTTP's 431).
 */
function refusal(code: string | undefined): { code: ErrorCode; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { code: 'PAYLOAD_TOO_LARGE', message: 'The request headers (URL included) exceed 16 KiB.' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 'VALIDATION_ERROR', message: 'The request was not received in time.' };
  return { code: 'VALIDATION_ERROR', message: 'The request is not valid HTTP.' };
}

function writeRefusal(socket: Duplex, { code, message }: ReturnType<typeof refusal>): string {
  const status = ERROR_STATUS[code];
  const requestId = uuidv7();
  const body = JSON.stringify({ success: false, error: { code, message, details: null } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  return requestId;
}

export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const requestId = writeRefusal(socket, refusal(error.code));
  this.log.debug({ err: error, reqId: requestId }, 'client error');
  socket.destroy(error);
}

/** CONNECT is no API method; without a listener Node would drop the connection without a word. */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  writeRefusal(socket, { code: 'VALIDATION_ERROR', message: 'CONNECT is not supported: this is not a proxy.' });
  socket.end();
}
