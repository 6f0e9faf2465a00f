/**
 * pods/exec and pods/attach into containers of simulated nodes running in this process: the
 * sessions the API server serves over SPDY or WebSocket, run as the kubelet and its runtime would
 * run them (ExecInContainer, AttachContainer) where the simulator knows what would happen, and
 * refused with the reason where it does not.
 *
 * exec runs the command once the client has closed stdin (the simulated shell is not
 * interactive); its output comes at the times the program would print it, on the nodes' clock.
 * attach follows the output of a container whose program the node follows.
 */
import { StringDecoder } from 'node:string_decoder';
import type { StreamSession, StreamSessionEnd, StreamSessionIo } from '../../../machinery/stream-session.js';
import type { ContainerSource } from './pod-connect.js';

/** Input a command may be given (`kubectl exec -i … < file`). */
const maxStdinBytes = 16 * 1024 * 1024;

export interface SessionStreams {
  readonly stdin: boolean;
  readonly stdout: boolean;
  readonly stderr: boolean;
  readonly tty: boolean;
}

export interface PodRef {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/** Go's %q of a string (as the kubelet's messages quote names). */
function quote(s: string): string {
  return JSON.stringify(s);
}

/** What a terminal does to output: stderr joins stdout, newlines become CR LF (onlcr). */
function forTerminal(text: string, tty: boolean): string {
  return tty ? text.replace(/\r?\n/g, '\r\n') : text;
}

async function readAll(stdin: AsyncIterable<Uint8Array>): Promise<string | undefined> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  let bytes = 0;
  for await (const chunk of stdin) {
    bytes += chunk.byteLength;
    if (bytes > maxStdinBytes) return undefined;
    text += decoder.write(Buffer.from(chunk));
  }
  return text + decoder.end();
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** `kubectl exec` into a container of a simulated node of this process. */
export function execSession(o: {
  readonly source: ContainerSource;
  readonly pod: PodRef;
  readonly container: string;
  readonly command: readonly string[];
  readonly streams: SessionStreams;
}): StreamSession {
  const { source, streams } = o;
  const failed = (why: string): StreamSessionEnd => ({
    error: `error executing command in container: ${why}`,
  });
  return {
    ...streams,
    async run(io: StreamSessionIo): Promise<StreamSessionEnd> {
      const stdin = streams.stdin ? await readAll(io.stdin) : '';
      if (stdin === undefined) return failed(`more than ${maxStdinBytes} bytes on stdin`);
      if (io.signal.aborted) return failed('the client went away');
      let r: Awaited<ReturnType<ContainerSource['exec']>>;
      try {
        r = await source.exec(o.pod, o.container, o.command, stdin, io.signal);
      } catch (err) {
        return failed(err instanceof Error ? err.message : String(err));
      }
      if (r === undefined || r.kind === 'not-running')
        return failed(`container not found (${quote(o.container)})`);
      if (r.kind === 'unknowable') {
        return failed(
          `the simulated node cannot run ${quote(o.command.join(' '))} in container ${quote(o.container)}: ${r.reason}`,
        );
      }
      let t = 0;
      for (const chunk of r.output) {
        if (chunk.at > t) {
          await source.sleep(chunk.at - t, io.signal);
          t = chunk.at;
        }
        if (io.signal.aborted) return failed('the client went away');
        const text = Buffer.from(forTerminal(chunk.text, streams.tty));
        if (chunk.fd === 1) await io.stdout(text);
        else await io.stderr(text);
      }
      // A command that never ends (`sleep infinity`, a loop) runs until the client goes away.
      if (r.code === undefined) {
        await untilAborted(io.signal);
        return failed('the client went away');
      }
      if (r.elapsedMs > t) await source.sleep(r.elapsedMs - t, io.signal);
      if (r.code === 0) return { exitCode: 0, message: '' };
      // The runtime's words (containerd, CRI-O) for a command that exited non-zero.
      return {
        exitCode: r.code,
        message: `error executing command [${o.command.join(' ')}], exit code ${r.code}`,
      };
    },
  };
}

/** `kubectl attach` to a container of a simulated node whose output the node follows. */
export function attachSession(o: {
  readonly source: ContainerSource;
  readonly pod: PodRef;
  readonly container: string;
  readonly streams: SessionStreams;
  /** The cluster's clock (ms). */
  readonly now: () => number;
}): StreamSession {
  const { source, streams } = o;
  const failed = (why: string): StreamSessionEnd => ({ error: `error attaching to container: ${why}` });
  return {
    ...streams,
    async run(io: StreamSessionIo): Promise<StreamSessionEnd> {
      const first = source.output(o.pod, o.container, false);
      if (first === undefined) {
        return failed(`the simulated node does not know what container ${quote(o.container)} prints`);
      }
      if (first.finishedAt !== undefined) return failed(`container not found (${quote(o.container)})`);
      // What the process prints from now on; what it printed before is the log's, not attach's.
      let shown = first.chunks.filter((c) => c.at <= o.now()).length;
      while (!io.signal.aborted) {
        await source.sleep(1000, io.signal);
        const now = source.output(o.pod, o.container, false);
        if (now === undefined || now.startedAt !== first.startedAt) break;
        const due = now.chunks.filter((c) => c.at <= o.now());
        for (const c of due.slice(shown)) await io.stdout(Buffer.from(forTerminal(c.text, streams.tty)));
        shown = due.length;
        if (now.finishedAt !== undefined && now.finishedAt <= o.now()) break;
      }
      return { exitCode: 0, message: '' };
    },
  };
}
