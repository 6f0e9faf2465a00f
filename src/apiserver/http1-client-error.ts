/**
 * The answer to an HTTP/1.1 connection whose request node's parser refused (`clientError`), as Go's
 * net/http gives it. Node's own handler writes the answer and destroys the socket at once; with
 * the client still sending (a 1 MiB header), the bytes left unread make the kernel reset the
 * connection, and a reset can reach the client before it has read the answer, which it then never
 * sees. Go answers 431 with `closeWriteAndWait`: it half-closes and lingers before closing. This
 * does the same for every answered refusal (Go's 400 closes at once; a linger costs nothing): the
 * answer, then our side of the connection ended, what the client still sends read and dropped,
 * and the socket destroyed `unreadInputDrainMs` later at the latest.
 */
import type { Duplex } from 'node:stream';
import { goHttpErrorAnswer } from '../util/go-http-answer.js';
import { unreadInputDrainMs } from './serving-options.js';

/** The socket of a connection node's HTTP/1.1 parser gave up on. */
interface ClientSocket extends Duplex {
  /** The response in flight on this connection, if any (node's, untyped). */
  readonly _httpMessage?: unknown;
}

/** Whether a response on this connection has begun: an answer written now would corrupt it. */
function answering(socket: ClientSocket): boolean {
  const message = socket._httpMessage;
  return (
    typeof message === 'object' &&
    message !== null &&
    'headersSent' in message &&
    message.headersSent === true
  );
}

/**
 * What the refused connection is answered: only a request node's HTTP/1.1 parser refused (an
 * `HPE_` code) is; a TLS handshake that failed or timed out, the header timeout and socket errors
 * also come here and are closed without a word, as Go closes them (an answer written on a socket
 * still in its handshake would wait there and reach a client whose handshake then completes).
 */
function answerFor(code: unknown): string | undefined {
  if (code === 'HPE_HEADER_OVERFLOW') return goHttpErrorAnswer('431 Request Header Fields Too Large');
  if (typeof code === 'string' && code.startsWith('HPE_')) return goHttpErrorAnswer('400 Bad Request');
  return undefined;
}

/** Sockets already answered: node's parser may report the same connection again. */
const refused = new WeakSet<Duplex>();

/**
 * The front door's `clientError` listener: node's HTTP/2 server reports there both its HTTP/1.1
 * fallback's refusals and TLS errors (a handshake that failed or took too long).
 */
export function onHttp1ClientError(err: Error & { code?: unknown }, socket: ClientSocket): void {
  if (refused.has(socket)) return;
  refused.add(socket);
  socket.on('error', () => undefined);
  const answer = answerFor(err.code);
  if (answer === undefined || !socket.writable || answering(socket)) {
    socket.destroy();
    return;
  }
  socket.end(answer);
  // Node's parser has stopped; what the client still sends is read here and dropped.
  socket.removeAllListeners('data');
  socket.on('data', () => undefined);
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), unreadInputDrainMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
