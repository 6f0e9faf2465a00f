/**
 * The server end of client/port-transport.ts: requests arriving on a message port from the
 * components' worker thread go into the API server's in-process request chain as the loopback
 * user (the same path, filters and identity as inProcessTransport); each response's head, body
 * chunks and end go back on the port, paced by the reader's acknowledgements.
 */
import type { ApiServer } from '../../apiserver/server.js';
import type { InProcessResponse } from '../../apiserver/in-process.js';
import { portHighWaterMark } from '../../client/port-transport.js';
import type { MessagePortLike, PortClientMessage, PortServerMessage } from '../../client/port-transport.js';
import type { UserInfo } from '../../machinery/user.js';

function isPortClientMessage(m: unknown): m is PortClientMessage {
  if (typeof m !== 'object' || m === null) return false;
  const { t, id } = m as { t?: unknown; id?: unknown };
  return typeof id === 'number' && (t === 'req' || t === 'cancel' || t === 'ack');
}

/** One request being served. */
interface Served {
  readonly abort: AbortController;
  response: InProcessResponse | undefined;
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
  server: Pick<ApiServer, 'dispatchInProcess'>,
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
        if (s.abort.signal.aborted) return;
        // A chunk may be a view of a shared pool: send an exact copy, transferred, not the pool.
        const copy = new Uint8Array(chunk);
        s.unacked += copy.byteLength;
        post({ t: 'data', id, chunk: copy }, [copy.buffer]);
        while (s.unacked >= portHighWaterMark && !s.abort.signal.aborted) {
          await new Promise<void>((resolve) => (s.resume = resolve));
        }
      }
      post({ t: 'end', id });
    } catch {
      if (!s.abort.signal.aborted) post({ t: 'cut', id });
    } finally {
      served.delete(id);
    }
  };

  const request = (m: Extract<PortClientMessage, { t: 'req' }>): void => {
    const s: Served = { abort: new AbortController(), response: undefined, unacked: 0, resume: undefined };
    served.set(m.id, s);
    server
      .dispatchInProcess(
        {
          method: m.method,
          path: m.path,
          headers: m.headers,
          ...(m.body !== undefined ? { body: m.body } : {}),
          signal: s.abort.signal,
        },
        user,
      )
      .then(
        (response) => {
          if (s.abort.signal.aborted) {
            response.cancel();
            served.delete(m.id);
            return;
          }
          s.response = response;
          post({ t: 'head', id: m.id, status: response.status });
          void pump(m.id, s, response);
        },
        (err: unknown) => {
          served.delete(m.id);
          if (!s.abort.signal.aborted) {
            post({ t: 'fail', id: m.id, message: err instanceof Error ? err.message : String(err) });
          }
        },
      );
  };

  const stop = (s: Served): void => {
    s.abort.abort();
    s.response?.cancel();
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
