/**
 * Test support for the workload controllers' integration tests: an in-process server (its own
 * built-in controllers off), an admin REST client and informer factory, polling helpers, and
 * pod status writes standing in for nodes (Running, Ready with a lastTransitionTime).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SharedInformerFactory } from '../../src/client/informer-factory.js';
import type { RestClient } from '../../src/client/rest-client.js';
import type { ListWatchClient } from '../../src/client/shared-informer.js';
import type { Clock } from '../../src/util/clock.js';
import type { JsonObject } from '../../src/util/json.js';
import { adminClient, startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

export interface Cluster {
  readonly server: TestServer;
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly signal: AbortSignal;
  readonly errors: unknown[];
  /** Starts the informers and the given controller runs. */
  start(runs: readonly ((signal: AbortSignal) => Promise<void>)[]): void;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** What the informers time backoffs with (the controllers under test get it too). */
  readonly clock?: Clock;
  /**
   * Holds back each watch event of the informers' watches whose path this returns a delay for,
   * by that many milliseconds: an informer lagging the API server, as one can under load.
   */
  readonly watchDelayMs?: (path: string) => number;
}

/** Wraps `client` so that the watches `delayMs` names deliver each event late. */
function lagging(client: RestClient, delayMs: (path: string) => number): ListWatchClient {
  return {
    request: client.request.bind(client),
    async *watch(path, signal, options) {
      const ms = delayMs(path);
      for await (const ev of client.watch(path, signal, options)) {
        if (ms > 0) await sleep(ms, undefined, { signal });
        yield ev;
      }
    },
  };
}

export async function startCluster(o: ClusterOptions = {}): Promise<Cluster> {
  const server = await startTestServer({ controllers: false });
  const client = adminClient(server);
  const abort = new AbortController();
  const errors: unknown[] = [];
  const informers = new SharedInformerFactory({
    client: o.watchDelayMs !== undefined ? lagging(client, o.watchDelayMs) : client,
    onError: (err) => errors.push(err),
    ...(o.clock !== undefined ? { clock: o.clock } : {}),
  });
  const running: Promise<void>[] = [];
  return {
    server,
    client,
    informers,
    signal: abort.signal,
    errors,
    start(runs) {
      for (const r of runs) running.push(r(abort.signal));
      informers.start(abort.signal);
    },
    async stop() {
      abort.abort();
      await Promise.allSettled(running);
      await informers.stopped();
      client.close();
      await server.stop();
    },
  };
}

export { waitFor } from '../support/poll.js';

export async function createNamespace(client: RestClient, name: string): Promise<void> {
  await client.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
  });
}

export function items(list: JsonObject): JsonObject[] {
  return Array.isArray(list['items']) ? (list['items'] as JsonObject[]) : [];
}

export async function listPods(client: RestClient, ns: string, selector = ''): Promise<JsonObject[]> {
  const q = selector === '' ? '' : `?labelSelector=${encodeURIComponent(selector)}`;
  return items(await client.request('GET', `/api/v1/namespaces/${ns}/pods${q}`));
}

/** Active pods (not being deleted). */
export async function activePods(client: RestClient, ns: string, selector = ''): Promise<JsonObject[]> {
  return (await listPods(client, ns, selector)).filter((p) => {
    const m = p['metadata'] as JsonObject;
    return m['deletionTimestamp'] === undefined || m['deletionTimestamp'] === null;
  });
}

export function podName(p: JsonObject): string {
  return (p['metadata'] as JsonObject)['name'] as string;
}

/** Writes the status a node would: Running and Ready (or not), optionally on a node. */
export async function setPodReady(
  client: RestClient,
  pod: JsonObject,
  ready = true,
  options: { readonly at?: Date; readonly phase?: string } = {},
): Promise<void> {
  const m = pod['metadata'] as JsonObject;
  const path = `/api/v1/namespaces/${m['namespace'] as string}/pods/${m['name'] as string}`;
  for (let attempt = 0; ; attempt++) {
    const fresh = await client.request('GET', path);
    const at = (options.at ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
    fresh['status'] = {
      phase: options.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: at }],
    };
    try {
      await client.request('PUT', `${path}/status`, { body: fresh });
      return;
    } catch (err) {
      if (attempt > 5) throw err;
    }
  }
}

/**
 * Writes a terminal status as a node would for a Job's pod: the phase and the exit code of its
 * container `main` (image busybox), terminated `at` (default now).
 */
export async function finishPod(
  client: RestClient,
  pod: JsonObject,
  phase: 'Succeeded' | 'Failed',
  options: { readonly exitCode?: number; readonly at?: Date } = {},
): Promise<void> {
  const m = pod['metadata'] as JsonObject;
  const path = `/api/v1/namespaces/${m['namespace'] as string}/pods/${m['name'] as string}`;
  const exitCode = options.exitCode ?? (phase === 'Succeeded' ? 0 : 1);
  for (let attempt = 0; ; attempt++) {
    const fresh = await client.request('GET', path);
    const at = (options.at ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
    fresh['status'] = {
      phase,
      containerStatuses: [
        {
          name: 'main',
          image: 'busybox',
          imageID: '',
          ready: false,
          restartCount: 0,
          state: {
            terminated: {
              exitCode,
              reason: phase === 'Succeeded' ? 'Completed' : 'Error',
              startedAt: at,
              finishedAt: at,
            },
          },
        },
      ],
    };
    try {
      await client.request('PUT', `${path}/status`, { body: fresh });
      return;
    } catch (err) {
      if (attempt > 5) throw err;
    }
  }
}

/** Marks every active pod matching `selector` Ready (those not yet Ready). */
export async function readyAll(client: RestClient, ns: string, selector = ''): Promise<number> {
  let n = 0;
  for (const p of await activePods(client, ns, selector)) {
    const conds = ((p['status'] as JsonObject | undefined)?.['conditions'] ?? []) as JsonObject[];
    if (conds.some((c) => c['type'] === 'Ready' && c['status'] === 'True')) continue;
    await setPodReady(client, p).catch(() => undefined);
    n++;
  }
  return n;
}

export const container = (image: string): JsonObject => ({ name: 'app', image });
