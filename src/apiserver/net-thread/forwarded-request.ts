/**
 * A request the network thread received, on the main thread: its head as sent, its body as a
 * readable stream fed by the network thread's messages, and a stand-in for its connection (the
 * client's address for audit; destroying it drops the answer as destroying a socket would).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { ClientCertificate } from '../../auth/authenticator.js';
import type { ForwardedHead } from './protocol.js';

/** What code that looks at `req.socket` finds: the address, and a way to drop the connection. */
export interface ForwardedConnection {
  readonly remoteAddress: string | undefined;
  readonly destroyed: boolean;
  destroy(): void;
}

export class ForwardedRequest extends Readable {
  readonly method: string;
  readonly url: string;
  readonly httpVersion: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders: string[];
  /** The client certificate of the request's connection; null when it sent none. */
  readonly certificate: ClientCertificate | null;
  readonly socket: ForwardedConnection;

  constructor(head: ForwardedHead, drop: () => void) {
    super();
    this.method = head.method;
    this.url = head.url;
    this.httpVersion = head.httpVersion;
    this.headers = head.headers;
    this.rawHeaders = head.rawHeaders;
    this.certificate = head.certificate;
    let destroyed = false;
    this.socket = {
      remoteAddress: head.remoteAddress,
      get destroyed() {
        return destroyed;
      },
      destroy() {
        if (destroyed) return;
        destroyed = true;
        drop();
      },
    };
    if (head.ended) this.push(null);
    // A client gone mid-body fails the body's readers (they see the error); with none reading,
    // the error must not become an uncaught exception.
    this.on('error', () => undefined);
  }

  override _read(): void {
    // The network thread pushes the body as it arrives.
  }
}
