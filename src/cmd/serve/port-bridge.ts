/**
 * The server end of client/port-transport.ts: requests arriving on a message port from the
 * components' worker thread go into the API server's in-process request chain as the loopback
 * user (the same path, filters and identity as inProcessTransport); each response's head, body
 * chunks and end go back on the port, paced by the reader's acknowledgements (an answer whole with
 * its head goes as one message).
 */
import type { ApiServer } from '../../apiserver/server.js';
import type { InProcessCall, InProcessResponse } from '../../apiserver/in-process.js';
import { portHighWaterMark } from '../../client/port-transport.js';
import type { MessagePortLike, PortClientMessage, PortServerMessage } from '../../client/port-transport.js';
import type { UserInfo } from '../../machinery/user.js';

/** A chunk may be a view of a shared pool: an exact copy, to transfer instead of the pool. */
function ownCopy(chunk: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(chunk);
}

function isPortClientMessage(m: unknown): m is PortClientMessage {
  if (typeof m !== 'object' || m === null) return false;
  const { t, id } = m as { t?: unknown; id?: unknown };
  return typeof id === 'number' && (t === 'req' || t === 'cancel' || t === 'ack');
}

/** One request being served. */
interface Served {
  /** Set once the client cancelled or the bridge closed: nothing more is sent for it. */
  stopped: boolean;
  readonly call: InProcessCall;
  unacked: number;
  /** Set while the pump waits for acknowledgements. */
  resume: (() => void) | undefined;
}

export interface PortBridge {
  /** Cancels every response still open and stops listening. */
  close(): void;
}

export function servePort(
  port: MessagePortLike,
  server: Pick<ApiServer, 'startInProcess'>,
  user: UserInfo,
): PortBridge {
  const served = new Map<number, Served>();
  let closed = false;
  const post = (m: PortServerMessage, transfer?: readonly ArrayBuffer[]): void => {
    if (!closed) port.postMessage(m, transfer);
  };

  const pump = async (id: number, s: Served, response: InProcessResponse): Promise<void> => {
    try {
      for await (const chunk of response.body) {
        if (s.stopped) return;
        const copy = ownCopy(chunk);
        s.unacked += copy.byteLength;
        post({ t: 'data', id, chunk: copy }, [copy.buffer]);
        while (s.unacked >= portHighWaterMark && !s.stopped) {
          await new Promise<void>((resolve) => (s.resume = resolve));
        }
      }
      post({ t: 'end', id });
    } catch {
      if (!s.stopped) post({ t: 'cut', id });
    } finally {
      served.delete(id);
    }
  };

  const request = (m: Extract<PortClientMessage, { t: 'req' }>): void => {
    const call = server.startInProcess(
      {
        method: m.method,
        path: m.path,
        headers: m.headers,
        ...(m.body !== undefined ? { body: m.body } : {}),
      },
      user,
    );
    const s: Served = { stopped: false, call, unacked: 0, resume: undefined };
    served.set(m.id, s);
    call.response.then(
      (response) => {
        if (s.stopped) {
          response.cancel();
          served.delete(m.id);
          return;
        }
        const first = response.takeWritten();
        const chunk = first.chunk === undefined ? undefined : ownCopy(first.chunk);
        const transfer = chunk === undefined ? [] : [chunk.buffer];
        if (first.ended) {
          served.delete(m.id);
          post(
            { t: 'head', id: m.id, status: response.status, ...(chunk ? { chunk } : {}), end: true },
            transfer,
          );
          return;
        }
        s.unacked += chunk?.byteLength ?? 0;
        post({ t: 'head', id: m.id, status: response.status, ...(chunk ? { chunk } : {}) }, transfer);
        void pump(m.id, s, response);
      },
      (err: unknown) => {
        served.delete(m.id);
        if (!s.stopped) {
          post({ t: 'fail', id: m.id, message: err instanceof Error ? err.message : String(err) });
        }
      },
    );
  };

  const stop = (s: Served): void => {
    if (s.stopped) return;
    s.stopped = true;
    s.call.cancel();
    s.resume?.();
  };

  const onMessage = (m: unknown): void => {
    if (!isPortClientMessage(m)) return;
    if (m.t === 'req') {
      request(m);
      return;
    }
    const s = served.get(m.id);
    if (s === undefined) return;
    if (m.t === 'cancel') {
      served.delete(m.id);
      stop(s);
      return;
    }
    s.unacked -= m.bytes;
    if (s.unacked < portHighWaterMark) {
      const resume = s.resume;
      s.resume = undefined;
      resume?.();
    }
  };
  port.on('message', onMessage);
  return {
    close() {
      if (closed) return;
      closed = true;
      port.off('message', onMessage);
      for (const s of served.values()) stop(s);
      served.clear();
    },
  };
}
