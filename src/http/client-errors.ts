// Answers what Node's HTTP parser could not read (bad framing, a bad Content-Length, headers too large
// or too slow) with the contract's 400 INVALID_REQUEST envelope and a Request-Id, then ends the connection.
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { errorBody } from './envelope.js';

/** How long a refused connection may go on sending before it is cut: its bytes are read and dropped meanwhile. */
const LINGER_MS = 2000;

function detailOf(code: string | undefined): string {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'The request did not arrive in time.';
  if (code === 'HPE_HEADER_OVERFLOW') return 'The request headers are too large.';
  return 'The HTTP request is malformed.';
}

/** Node's own rule: answer only while no response on this connection has begun, so none is corrupted. */
function responseBegun(socket: Socket): boolean {
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return current?.headersSent === true;
}

function rawResponse(requestId: string, detail: string): string {
  const body = JSON.stringify(errorBody(new AppError('INVALID_REQUEST', detail)));
  return [
    'HTTP/1.1 400 Bad Request',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Fastify's `clientErrorHandler`, bound to the instance. */
export function answerClientError(this: { log: FastifyBaseLogger }, error: Error & { code?: string }, socket: Socket): void {
  // After our answer the parser reports every further packet again; those bytes are dropped while the
  // connection lingers, not answered or logged twice.
  if (error.code === 'ECONNRESET' || socket.destroyed || socket.writableEnded) return;
  const requestId = newId();
  this.log.info({ reqId: requestId, err: error }, 'malformed HTTP request refused');
  if (!socket.writable || responseBegun(socket)) {
    socket.destroy();
    return;
  }
  // end(), not destroy(): closing with unread bytes would send a reset that can discard the answer
  // before the client reads it. The client is expected to close; a client that does not is cut.
  socket.setTimeout(LINGER_MS, () => socket.destroy());
  socket.resume();
  socket.end(rawResponse(requestId, detailOf(error.code)));
}
