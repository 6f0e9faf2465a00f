/**
 * A Transport over a message port: how components running on a worker thread of `nanokube serve`
 * reach the API server on the main thread (cmd/serve/components-thread.ts serves the other end
 * into the server's in-process request chain). Requests are messages; a response is a head, its
 * body's chunks and an end, with flow control: the reader acknowledges the bytes it has taken, and
 * the server stops sending past a high-water mark of unacknowledged bytes, as a socket's window
 * would stop it. An answer already whole when its head is known (most are) is one message, its
 * head carrying the body and the end; the reader acknowledges in batches, not every chunk, so a
 * request costs the thread that serves it two messages instead of five.
 */
import type { PoolStats } from './session-pool.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

/** Client → server. */
export type PortClientMessage =
  | {
      readonly t: 'req';
      readonly id: number;
      readonly method: string;
      readonly path: string;
      readonly headers: Readonly<Record<string, string>>;
      readonly body?: string;
    }
  | { readonly t: 'cancel'; readonly id: number }
  | { readonly t: 'ack'; readonly id: number; readonly bytes: number };

/** Server → client. */
export type PortServerMessage =
  | {
      readonly t: 'head';
      readonly id: number;
      readonly status: number;
      /** The body's first bytes, when the server had them with the head. */
      readonly chunk?: Uint8Array;
      /** The body ends with `chunk`: no 'data' or 'end' follows. */
      readonly end?: boolean;
    }
  | { readonly t: 'fail'; readonly id: number; readonly message: string }
  | { readonly t: 'data'; readonly id: number; readonly chunk: Uint8Array }
  | { readonly t: 'end'; readonly id: number }
  | { readonly t: 'cut'; readonly id: number };

/** Unacknowledged bytes the server may have in flight per response. */
export const portHighWaterMark = 1024 * 1024;

/** Bytes the reader takes before it acknowledges them (well below the high-water mark). */
export const portAckBytes = 64 * 1024;

/** What a PortChannel needs of node's MessagePort (or a test double). */
export interface MessagePortLike {
  postMessage(value: unknown, transfer?: readonly ArrayBuffer[]): void;
  on(event: 'message', listener: (value: unknown) => void): unknown;
  off(event: 'message', listener: (value: unknown) => void): unknown;
}

export function isPortServerMessage(m: unknown): m is PortServerMessage {
  if (typeof m !== 'object' || m === null) return false;
  const { t, id } = m as { t?: unknown; id?: unknown };
  return (
    typeof id === 'number' && (t === 'head' || t === 'fail' || t === 'data' || t === 'end' || t === 'cut')
  );
}

/** One response in flight, from the request until its body has ended. */
class PendingResponse {
  readonly id: number;
  readonly #channel: PortChannel;
  readonly #onDone: () => void;
  #head: { resolve: (r: TransportResponse) => void; reject: (err: Error) => void } | undefined;
  readonly #chunks: Uint8Array[] = [];
  #ended = false;
  #cut = false;
  #done = false;
  #wake: (() => void) | undefined;
  /** Bytes taken by the reader and not yet acknowledged. */
  #taken = 0;

  constructor(
    id: number,
    channel: PortChannel,
    head: { resolve: (r: TransportResponse) => void; reject: (err: Error) => void },
    onDone: () => void,
  ) {
    this.id = id;
    this.#channel = channel;
    this.#head = head;
    this.#onDone = onDone;
  }

  receive(m: PortServerMessage): void {
    switch (m.t) {
      case 'head': {
        if (m.chunk !== undefined) this.#chunks.push(m.chunk);
        if (m.end === true) this.#ended = true;
        const head = this.#head;
        this.#head = undefined;
        head?.resolve({ status: m.status, body: this.#body(), cancel: () => this.cancel() });
        return;
      }
      case 'fail':
        this.#fail(new Error(m.message));
        return;
      case 'data':
        this.#chunks.push(m.chunk);
        break;
      case 'end':
        this.#ended = true;
        break;
      case 'cut':
        this.#cut = true;
        break;
    }
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** The caller gave up (abort before the head, cancel or an early break after). */
  cancel(): void {
    if (this.#done) return;
    if (!this.#ended && !this.#cut) this.#channel.post({ t: 'cancel', id: this.id });
    this.#fail(new Error('the request was cancelled'));
  }

  /** The channel closed, or the server failed the request before its head. */
  #fail(err: Error): void {
    this.#cut = true;
    this.#finish();
    const head = this.#head;
    this.#head = undefined;
    head?.reject(err);
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  close(): void {
    this.#fail(new Error('the client was closed'));
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    this.#onDone();
  }

  async *#body(): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const chunk = this.#chunks.shift();
        if (chunk !== undefined) {
          // Acknowledged in batches, and not at all once the server has sent the end.
          this.#taken += chunk.byteLength;
          if (this.#taken >= portAckBytes && !this.#ended) {
            this.#channel.post({ t: 'ack', id: this.id, bytes: this.#taken });
            this.#taken = 0;
          }
          yield chunk;
          continue;
        }
        if (this.#ended) {
          this.#finish();
          return;
        }
        if (this.#cut) throw new Error('the response was cut off before its end');
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      if (!this.#ended) this.cancel();
    }
  }
}

/**
 * The client end of a port: every Transport it hands out shares the port, each stamping its own
 * user agent on its requests.
 */
export class PortChannel {
  readonly #port: MessagePortLike;
  readonly #pending = new Map<number, PendingResponse>();
  #next = 1;
  #closed = false;
  readonly #onMessage = (m: unknown): void => {
    if (!isPortServerMessage(m)) return;
    this.#pending.get(m.id)?.receive(m);
  };

  constructor(port: MessagePortLike) {
    this.#port = port;
    port.on('message', this.#onMessage);
  }

  /** @internal */
  post(m: PortClientMessage): void {
    if (!this.#closed) this.#port.postMessage(m);
  }

  transport(o: { readonly userAgent: string }): Transport {
    const mine = new Set<PendingResponse>();
    let closed = false;
    return {
      send: (request: TransportRequest): Promise<TransportResponse> => {
        if (closed || this.#closed) return Promise.reject(new Error('the client was closed'));
        const { signal } = request;
        if (signal?.aborted === true) {
          return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        }
        const id = this.#next++;
        return new Promise<TransportResponse>((resolve, reject) => {
          const pending: PendingResponse = new PendingResponse(
            id,
            this,
            {
              resolve: (r) => {
                signal?.removeEventListener('abort', onAbort);
                resolve(r);
              },
              reject: (err) => {
                signal?.removeEventListener('abort', onAbort);
                reject(signal?.aborted === true && signal.reason instanceof Error ? signal.reason : err);
              },
            },
            () => {
              this.#pending.delete(id);
              mine.delete(pending);
            },
          );
          const onAbort = (): void => pending.cancel();
          signal?.addEventListener('abort', onAbort, { once: true });
          this.#pending.set(id, pending);
          mine.add(pending);
          this.post({
            t: 'req',
            id,
            method: request.method,
            path: request.path,
            headers: { ...request.headers, 'user-agent': o.userAgent },
            ...(request.body !== undefined ? { body: request.body } : {}),
          });
        });
      },
      stats: (): PoolStats => ({ sessions: 0, streams: mine.size }),
      close: () => {
        closed = true;
        for (const p of [...mine]) p.cancel();
      },
    };
  }

  /** Ends every response in flight and stops listening; later requests fail. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#port.off('message', this.#onMessage);
    for (const p of [...this.#pending.values()]) p.close();
    this.#pending.clear();
  }
}
