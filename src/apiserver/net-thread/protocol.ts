/**
 * The messages between the network thread (worker.ts: TLS, HTTP/2 and HTTP/1.1, the connection
 * bounds) and the API server on the main thread (bridge.ts: the request chain). A request is its
 * head, its body's chunks and an end; a response is any mix of head, chunks and end (most are one
 * message), paced by the network thread's acknowledgements of the bytes it has handed to the
 * connection. An HTTP/1.1 upgrade (exec, attach, port-forward) becomes a tunnel of socket bytes.
 */
import type { ClientCertificate } from '../../auth/authenticator.js';
import type { ServingOptions } from '../serving-options.js';

/** What the network thread starts from (its workerData). */
export interface NetThreadData {
  readonly kind: 'nanokube-net-thread';
  readonly key: string;
  readonly cert: string;
  readonly ca: string;
  readonly host: string;
  readonly port: number;
  readonly serving?: ServingOptions;
}

export function isNetThreadData(d: unknown): d is NetThreadData {
  return typeof d === 'object' && d !== null && (d as { kind?: unknown }).kind === 'nanokube-net-thread';
}

/** A request's head, as the network thread received it. */
export interface ForwardedHead {
  readonly t: 'req';
  readonly id: number;
  readonly method: string;
  readonly url: string;
  /** '2.0' or '1.1'. */
  readonly httpVersion: string;
  readonly headers: Record<string, string | string[]>;
  readonly rawHeaders: string[];
  readonly remoteAddress: string | undefined;
  /** The connection's client certificate; null when it sent none. */
  readonly certificate: ClientCertificate | null;
  /** The request has no body (HTTP/2 END_STREAM on its headers, HTTP/1.1 without a length). */
  readonly ended: boolean;
  /** An HTTP/1.1 request asking to switch protocols: the bytes read past its head. */
  readonly upgradeHead?: Uint8Array;
}

/** Network thread → main thread. */
export type NetUp =
  | { readonly t: 'listening'; readonly port: number }
  | {
      readonly t: 'listen-error';
      readonly message: string;
      readonly code?: string;
      readonly syscall?: string;
      readonly address?: string;
      readonly port?: number;
    }
  | ForwardedHead
  | { readonly t: 'body'; readonly id: number; readonly chunk: Uint8Array }
  | { readonly t: 'body-end'; readonly id: number }
  /** The client went away before the answer ended (or, for a tunnel, the socket closed). */
  | { readonly t: 'gone'; readonly id: number }
  /** Bytes of the answer (or, for a tunnel, of what the server sent) the connection has taken. */
  | { readonly t: 'ack'; readonly id: number; readonly bytes: number }
  /** Tunnel bytes from the client; `chunk` absent: the client ended its side. */
  | { readonly t: 'sock'; readonly id: number; readonly chunk?: Uint8Array }
  | { readonly t: 'closed' };

/** Main thread → network thread. */
export type NetDown =
  | {
      readonly t: 'res';
      readonly id: number;
      readonly status?: number;
      readonly headers?: Record<string, string | string[]>;
      readonly chunk?: Uint8Array;
      readonly end?: true;
    }
  /** Drop the answer: HTTP/2 RST_STREAM CANCEL, HTTP/1.1 the connection. */
  | { readonly t: 'reset'; readonly id: number }
  /** Tunnel bytes to the client; `end` half-closes, `destroy` closes. */
  | {
      readonly t: 'sock';
      readonly id: number;
      readonly chunk?: Uint8Array;
      readonly end?: true;
      readonly destroy?: true;
    }
  /** Stop accepting connections and close idle ones; 'closed' answers. */
  | { readonly t: 'close' };

export function isNetUp(m: unknown): m is NetUp {
  return typeof m === 'object' && m !== null && typeof (m as { t?: unknown }).t === 'string';
}

export const isNetDown = isNetUp as (m: unknown) => m is NetDown;

/**
 * Answer bytes the main thread may have sent and not yet seen acknowledged, per response: about
 * what node buffers for one stream (its 16 KiB high-water mark) plus an HTTP/2 client window
 * (64 KiB), so that a client that stops reading blocks the answer as soon as it would in-thread.
 */
export const responseWindowBytes = 80 * 1024;

/** A copy of `chunk` in an ArrayBuffer of its own (to transfer; a pool's buffer cannot be). */
export function ownCopy(chunk: Uint8Array): Uint8Array {
  return new Uint8Array(chunk);
}
