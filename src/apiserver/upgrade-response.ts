/**
 * The response side of an HTTP/1.1 request asking to switch protocols (`Connection: Upgrade`,
 * what SPDY and WebSocket clients of pods/exec, attach and log send). Node hands such a request
 * over with its raw socket; this object lets it go through the same request chain as any other
 * (authentication, audit, priority and fairness, authorization, admission): an answer that is not
 * a protocol switch (an error Status, a 400) is written as a plain HTTP/1.1 response and the
 * connection closed; a handler that switches takes the socket over with {@link takeOverUpgrade}.
 */
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { ForwardedRequest } from './net-thread/forwarded-request.js';
import type { Duplex } from 'node:stream';
import { HeaderedResponse } from './headered-response.js';
import type { ServerResponseLike } from './response.js';

/** The socket of an upgrade request, handed to the handler that switches protocols. */
export interface UpgradedConnection {
  readonly req: IncomingMessage | ForwardedRequest;
  readonly socket: Duplex;
  /** Bytes the client sent after the request head (the first bytes of the new protocol). */
  readonly head: Buffer;
  /** Call once the session is over: the request counts as ended (audit, metrics, in-flight). */
  readonly done: () => void;
}

export class UpgradeResponse extends HeaderedResponse implements ServerResponseLike {
  readonly req: IncomingMessage | ForwardedRequest;
  writableEnded = false;
  writableFinished = false;
  readonly #socket: Duplex;
  readonly #head: Buffer;
  readonly #body: Buffer[] = [];
  #taken = false;

  constructor(req: IncomingMessage | ForwardedRequest, socket: Duplex, head: Buffer) {
    super();
    this.req = req;
    this.#socket = socket;
    this.#head = head;
    // The client going away ends the request's work (the chain listens for 'close').
    socket.once('close', () => {
      if (!this.writableEnded) this.emit('close');
    });
    socket.on('error', () => socket.destroy());
  }

  write(chunk: string | Uint8Array): boolean {
    this.headersSent = true;
    if (!this.writableEnded)
      this.#body.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
    return true;
  }

  /** Writes the whole answer (status, headers, body) and closes the connection. */
  end(chunk?: string | Uint8Array): this {
    if (this.writableEnded) return this;
    if (chunk !== undefined) this.write(chunk);
    this.writableEnded = true;
    if (!this.#taken && !this.#socket.destroyed) {
      const body = Buffer.concat(this.#body);
      this.setHeader('content-length', String(body.byteLength));
      this.setHeader('connection', 'close');
      const lines = [`HTTP/1.1 ${this.statusCode} ${STATUS_CODES[this.statusCode] ?? ''}`];
      for (const [name, value] of this.headerEntries()) {
        for (const v of Array.isArray(value) ? value : [value]) lines.push(`${canonical(name)}: ${v}`);
      }
      this.#socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
    }
    this.#finish();
    return this;
  }

  destroy(): this {
    this.#socket.destroy();
    this.#finish();
    return this;
  }

  #finish(): void {
    if (this.writableFinished) return;
    this.writableEnded = true;
    this.writableFinished = true;
    this.emit('finish');
    this.emit('close');
  }

  /** @internal the handler's side of {@link takeOverUpgrade}. */
  takeOver(): UpgradedConnection {
    if (this.#taken || this.headersSent) throw new Error('the upgrade response was already answered');
    this.#taken = true;
    this.statusCode = 101;
    this.headersSent = true;
    return { req: this.req, socket: this.#socket, head: this.#head, done: () => this.#finish() };
  }
}

/** Go's CanonicalMIMEHeaderKey for the names this writer sends (content-type → Content-Type). */
function canonical(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
}

/**
 * The raw connection of a request that asked to switch protocols, when it came over HTTP/1.1 with
 * its socket (undefined for HTTP/2, in-process requests, or an answer already begun).
 */
export function takeOverUpgrade(res: ServerResponseLike): UpgradedConnection | undefined {
  return res instanceof UpgradeResponse && !res.headersSent ? res.takeOver() : undefined;
}
