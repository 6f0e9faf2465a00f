/**
 * The main thread's side of the network thread (worker.ts): starts it, turns its messages into
 * requests for the API server's chain (ForwardedRequest, ForwardedResponse, TunnelSocket for
 * upgrades) and its answers back into messages. Handshakes, HTTP/2 framing, HTTP/1.1 parsing and
 * the connection bounds then run on another core, and a busy request chain does not delay them.
 */
import { Worker } from 'node:worker_threads';
import { ForwardedRequest } from './forwarded-request.js';
import { ForwardedResponse } from './forwarded-response.js';
import { isNetUp } from './protocol.js';
import type { ForwardedHead, NetDown, NetThreadData, NetUp } from './protocol.js';
import { TunnelSocket } from './tunnel-socket.js';

/** Where and how the thread listens (its workerData less the tag), and where requests go. */
export interface NetThreadOptions extends Omit<NetThreadData, 'kind'> {
  /** Serves one request through the chain; resolves when it is done with. */
  readonly handle: (req: ForwardedRequest, res: ForwardedResponse) => Promise<void>;
  /** An HTTP/1.1 request asking to switch protocols, with its connection. */
  readonly upgrade: (req: ForwardedRequest, socket: TunnelSocket, head: Buffer) => void;
}

/** A request being served: its body still arriving, its answer being written, or a tunnel. */
interface Served {
  readonly req: ForwardedRequest;
  readonly res: ForwardedResponse | undefined;
  readonly socket: TunnelSocket | undefined;
}

/**
 * The thread, started from its entry: dist/net-thread.js beside the bundle this module is part of,
 * `worker.js` beside this module unbundled. From source (tests, under tsx) `worker.ts` is loaded by
 * a bootstrap that registers tsx in the thread first: Node 20 does not carry `--import` loader
 * hooks into worker threads.
 */
function startWorker(workerData: NetThreadData): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
    const entry = JSON.stringify(new URL('./worker.ts', here).href);
    const bootstrap = `import(${tsx}).then((t) => { t.register(); return import(${entry}); });`;
    return new Worker(bootstrap, { eval: true, workerData });
  }
  const entry = /\/net-thread\/net-thread\.js$/.test(here)
    ? new URL('./worker.js', here)
    : new URL('./net-thread.js', here);
  return new Worker(entry, { workerData });
}

/** A listen(2) failure as the network thread reported it, with node's fields. */
class ListenError extends Error {
  readonly code: string | undefined;
  readonly syscall: string | undefined;
  readonly address: string | undefined;
  readonly port: number | undefined;

  constructor(m: Extract<NetUp, { t: 'listen-error' }>) {
    super(m.message);
    this.code = m.code;
    this.syscall = m.syscall;
    this.address = m.address;
    this.port = m.port;
  }
}

export class NetThread {
  readonly port: number;
  readonly #worker: Worker;
  readonly #closed: Promise<void>;

  private constructor(worker: Worker, port: number, closed: Promise<void>) {
    this.#worker = worker;
    this.port = port;
    this.#closed = closed;
  }

  /** Starts the thread; resolves once it listens (rejects as listen(2) failed). */
  static start(o: NetThreadOptions): Promise<NetThread> {
    const data: NetThreadData = {
      kind: 'nanokube-net-thread',
      key: o.key,
      cert: o.cert,
      ca: o.ca,
      host: o.host,
      port: o.port,
      ...(o.serving !== undefined ? { serving: o.serving } : {}),
    };
    const worker = startWorker(data);
    const served = new Map<number, Served>();
    const post = (m: NetDown, transfer?: readonly ArrayBuffer[]): void =>
      worker.postMessage(m, transfer as ArrayBuffer[] | undefined);
    let markClosed!: () => void;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    void new Promise<void>((resolve) => worker.once('exit', () => resolve())).then(() => markClosed());

    const request = (head: ForwardedHead): void => {
      const id = head.id;
      const req = new ForwardedRequest(head, () => post({ t: 'reset', id }));
      if (head.upgradeHead !== undefined) {
        const socket = new TunnelSocket(id, post, head.remoteAddress);
        served.set(id, { req, res: undefined, socket });
        socket.once('close', () => served.delete(id));
        o.upgrade(req, socket, Buffer.from(head.upgradeHead));
        return;
      }
      const res = new ForwardedResponse(req, id, post);
      served.set(id, { req, res, socket: undefined });
      res.once('close', () => served.delete(id));
      void o.handle(req, res);
    };

    const onMessage = (m: NetUp): void => {
      if (m.t === 'req') {
        request(m);
        return;
      }
      if (m.t === 'closed') {
        markClosed();
        return;
      }
      if (m.t === 'listening' || m.t === 'listen-error') return;
      const s = served.get(m.id);
      if (s === undefined) return;
      switch (m.t) {
        case 'body':
          s.req.push(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength));
          return;
        case 'body-end':
          s.req.push(null);
          return;
        case 'ack':
          s.res?.acknowledged(m.bytes);
          s.socket?.acknowledged(m.bytes);
          return;
        case 'sock':
          s.socket?.received(m.chunk);
          return;
        case 'gone':
          served.delete(m.id);
          if (s.socket !== undefined) {
            s.socket.gone();
            return;
          }
          // A body still being read fails as a reset connection's would.
          if (!s.req.readableEnded) s.req.destroy(new Error('aborted'));
          s.res?.clientGone();
      }
    };

    return new Promise<NetThread>((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      worker.once('error', onError);
      worker.on('message', (m: unknown) => {
        if (!isNetUp(m)) return;
        if (m.t === 'listening') {
          worker.off('error', onError);
          resolve(new NetThread(worker, m.port, closed));
          return;
        }
        if (m.t === 'listen-error') {
          worker.off('error', onError);
          void worker.terminate();
          reject(new ListenError(m));
          return;
        }
        onMessage(m);
      });
    });
  }

  /** Stops accepting connections; after `graceMs` (or once every connection ended) the thread ends. */
  async close(graceMs: number): Promise<void> {
    this.#worker.postMessage({ t: 'close' } satisfies NetDown);
    await Promise.race([this.#closed, new Promise((r) => setTimeout(r, graceMs).unref())]);
    await this.#worker.terminate();
  }
}
