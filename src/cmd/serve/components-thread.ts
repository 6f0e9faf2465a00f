/**
 * `nanokube serve --components-thread` (the default): the in-process components (controller
 * manager, scheduler, simulated nodes, the `kubernetes` Service controller) on a worker thread of
 * their own, so that they run on another core than the API server's event loop. They reach the
 * server through a message port (client/port-transport.ts on their side, port-bridge.ts on the
 * server's) into the same in-process request chain, as the loopback user, exactly as they do on
 * the server's thread; their log lines come back to the server's logger.
 *
 * The worker runs this same module (the bundle, or its compiled file): the module starts the
 * components when it is loaded on a worker thread with this kind of workerData.
 */
import { MessageChannel, Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { ApiServer } from '../../apiserver/server.js';
import type { ClientCredentials } from '../../client/credentials.js';
import { PortChannel } from '../../client/port-transport.js';
import type { UserInfo } from '../../machinery/user.js';
import type { Logger } from '../../util/log.js';
import { startControllers } from './controllers.js';
import type { ApiserverServiceFlags, RunningControllers } from './controllers.js';
import { servePort } from './port-bridge.js';

const workerKind = 'nanokube-components';

/** The flags a worker can be given (a clock cannot cross threads: tests that set one use no thread). */
export type ThreadFlags = Omit<ApiserverServiceFlags, 'clock'>;

interface ComponentsWorkerData {
  readonly kind: typeof workerKind;
  readonly credentials: ClientCredentials;
  readonly flags: ThreadFlags;
  readonly port: MessagePort;
}

/** Worker → server, besides the transport's own port. */
type WorkerMessage =
  | {
      readonly t: 'log';
      readonly level: 'v' | 'info' | 'error';
      readonly v: number;
      readonly message: string;
    }
  | { readonly t: 'started' }
  | { readonly t: 'stopped' };

function isWorkerMessage(m: unknown): m is WorkerMessage {
  if (typeof m !== 'object' || m === null) return false;
  const t = (m as { t?: unknown }).t;
  return t === 'log' || t === 'started' || t === 'stopped';
}

function isComponentsWorkerData(d: unknown): d is ComponentsWorkerData {
  return typeof d === 'object' && d !== null && (d as { kind?: unknown }).kind === workerKind;
}

/** How long stop() waits for the components to stop before terminating the thread. */
const stopTimeoutMs = 10_000;

export interface ComponentsThreadOptions {
  readonly server: Pick<ApiServer, 'startInProcess'>;
  /** Who the components' requests are made as (the loopback user). */
  readonly user: UserInfo;
  /** What the controller manager is given besides its transport (signing keys come from flags). */
  readonly credentials: ClientCredentials;
  readonly flags: ThreadFlags;
  readonly log: Logger;
}

/** How long startup waits for the thread to load and start its components. */
const startTimeoutMs = 10_000;

export interface ComponentsThread extends RunningControllers {
  /**
   * Resolves once the components are started on the thread (as startControllers returns on the
   * server's), or when it failed or took longer than startTimeoutMs: `nanokube serve` says it is
   * ready only after, so its nodes register as soon as they would in-process.
   */
  readonly started: Promise<void>;
}

export function startComponentsThread(o: ComponentsThreadOptions): ComponentsThread {
  const channel = new MessageChannel();
  const bridge = servePort(channel.port1, o.server, o.user);
  const data: ComponentsWorkerData = {
    kind: workerKind,
    credentials: o.credentials,
    flags: o.flags,
    port: channel.port2,
  };
  const worker = new Worker(new URL(import.meta.url), {
    workerData: data,
    transferList: [channel.port2],
    // The components allocate much short-lived garbage (watch events, requests): a larger young
    // generation scavenges less often.
    resourceLimits: { maxYoungGenerationSizeMb: 64 },
  });
  let stopped: (() => void) | undefined;
  let markStarted!: () => void;
  const startedOrFailed = new Promise<void>((resolve) => (markStarted = resolve));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(markStarted);
  let startTimer: NodeJS.Timeout | undefined;
  const started = Promise.race([
    startedOrFailed,
    new Promise<void>((resolve) => (startTimer = setTimeout(resolve, startTimeoutMs))),
  ]).finally(() => clearTimeout(startTimer));
  worker.on('message', (m: unknown) => {
    if (!isWorkerMessage(m)) return;
    if (m.t === 'started') {
      markStarted();
      return;
    }
    if (m.t === 'stopped') {
      stopped?.();
      return;
    }
    if (m.level === 'error') o.log.error(m.message);
    else if (m.level === 'info') o.log.info(m.message);
    else o.log.v(m.v, m.message);
  });
  worker.on('error', (err) => o.log.error(`components thread failed: ${err.stack ?? err.message}`));
  let stopping: Promise<void> | undefined;
  return {
    started,
    stop() {
      stopping ??= (async () => {
        const done = new Promise<void>((resolve) => (stopped = resolve));
        worker.postMessage({ t: 'stop' });
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          done,
          exited,
          new Promise<void>((resolve) => (timer = setTimeout(resolve, stopTimeoutMs))),
        ]);
        clearTimeout(timer);
        await worker.terminate();
        bridge.close();
        channel.port1.close();
      })();
      return stopping;
    },
  };
}

/** On the worker: the components, with a logger that hands lines to the server's thread. */
function runComponents(d: ComponentsWorkerData): void {
  const parent = parentPort;
  if (parent === null) return;
  const post = (m: WorkerMessage): void => parent.postMessage(m);
  const log: Logger = {
    v: (v, message) => post({ t: 'log', level: 'v', v, message }),
    info: (message) => post({ t: 'log', level: 'info', v: 0, message }),
    error: (message) => post({ t: 'log', level: 'error', v: 0, message }),
  };
  const channel = new PortChannel(d.port);
  const running = startControllers(d.credentials, log, d.flags, (userAgent) =>
    channel.transport({ userAgent }),
  );
  post({ t: 'started' });
  parent.on('message', (m: unknown) => {
    if (typeof m !== 'object' || m === null || (m as { t?: unknown }).t !== 'stop') return;
    void running
      .stop()
      .catch((err: unknown) => log.error(`stopping the components: ${String(err)}`))
      .finally(() => {
        channel.close();
        d.port.close();
        post({ t: 'stopped' });
        parent.close();
      });
  });
}

if (!isMainThread && isComponentsWorkerData(workerData)) {
  // After every module of this file's bundle has been evaluated.
  const d = workerData;
  setImmediate(() => runComponents(d));
}
