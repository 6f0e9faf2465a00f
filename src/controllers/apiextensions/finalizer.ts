/**
 * The CRD finalizer (apiextensions-apiserver v0.27 pkg/controller/finalizer/crd_finalizer.go): a
 * CRD being deleted with the `customresourcecleanup.apiextensions.k8s.io` finalizer turns
 * Terminating ("InstanceDeletionInProgress"), its custom resources are deleted namespace by
 * namespace, and once none is left (polled every 5 s for up to a minute) the condition says
 * "InstanceDeletionCompleted" and the finalizer is removed through /status, which deletes the CRD.
 */
import { ApiError } from '../../client/api-error.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import { WorkQueue } from '../../client/workqueue.js';
import { realClock } from '../../util/clock.js';
import type { Clock } from '../../util/clock.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import { conditionTrue, crdsPath, setCondition } from './conditions.js';
import type { CrdCondition } from './conditions.js';

export const cleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

export interface CrdFinalizerOptions {
  readonly client: RestClient;
  readonly crds: SharedInformer;
  readonly clock?: Clock;
  readonly onError?: (err: unknown) => void;
  /** Poll interval while instances go away (default 5 s, upstream's). */
  readonly pollMs?: number;
}

function metaOf(o: JsonObject): JsonObject {
  const m = o['metadata'];
  return isJsonObject(m) ? m : {};
}

function str(o: JsonObject | undefined, k: string): string {
  const v = o?.[k];
  return typeof v === 'string' ? v : '';
}

/** Where the CRD's custom resources are listed (its storage version, or the first served). */
function instancesPath(crd: JsonObject): string | undefined {
  const spec = isJsonObject(crd['spec']) ? crd['spec'] : {};
  const status = isJsonObject(crd['status']) ? crd['status'] : {};
  const accepted = isJsonObject(status['acceptedNames']) ? status['acceptedNames'] : {};
  const versions = Array.isArray(spec['versions']) ? spec['versions'].filter(isJsonObject) : [];
  const served = versions.filter((v) => v['served'] === true);
  const version = served.find((v) => v['storage'] === true) ?? served[0];
  const plural = str(accepted, 'plural');
  if (version === undefined || plural === '') return undefined;
  return `/apis/${str(spec, 'group')}/${str(version, 'name')}/${plural}`;
}

function namespacedPath(crd: JsonObject, base: string, namespace: string): string {
  const spec = isJsonObject(crd['spec']) ? crd['spec'] : {};
  if (spec['scope'] === 'Cluster' || namespace === '') return base;
  const [, apis, group, version, plural] = base.split('/');
  return `/${apis}/${group}/${version}/namespaces/${namespace}/${plural}`;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class CrdFinalizer {
  readonly #o: CrdFinalizerOptions;
  readonly #queue: WorkQueue;
  readonly #clock: Clock;

  constructor(o: CrdFinalizerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    const onError = o.onError;
    this.#queue = new WorkQueue({
      ...(onError !== undefined ? { onError: (err: unknown) => onError(err) } : {}),
      ...(o.clock !== undefined ? { clock: o.clock } : {}),
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    const enqueue = (crd: JsonObject): void => {
      const meta = metaOf(crd);
      const finalizers = Array.isArray(meta['finalizers']) ? meta['finalizers'] : [];
      if (meta['deletionTimestamp'] !== undefined && finalizers.includes(cleanupFinalizer))
        this.#queue.add(str(meta, 'name'));
    };
    const registration = this.#o.crds.addEventHandler({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n) });
    try {
      await this.#queue.run(async (name) => {
        await this.#sync(name, signal);
        return undefined;
      }, signal);
    } finally {
      registration.remove();
    }
  }

  async #updateStatus(crd: JsonObject, signal: AbortSignal): Promise<JsonObject | undefined> {
    try {
      return await this.#o.client.request('PUT', `${crdsPath}/${str(metaOf(crd), 'name')}/status`, {
        body: crd,
        signal,
      });
    } catch (err) {
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return undefined;
      throw err;
    }
  }

  #set(crd: JsonObject, c: CrdCondition): void {
    setCondition(crd, c, new Date(this.#clock.now()));
  }

  async #sync(name: string, signal: AbortSignal): Promise<void> {
    const cached = this.#o.crds.store.get(name);
    if (cached === undefined) return;
    const meta = metaOf(cached);
    const finalizers = Array.isArray(meta['finalizers']) ? meta['finalizers'] : [];
    if (meta['deletionTimestamp'] === undefined || !finalizers.includes(cleanupFinalizer)) return;
    let crd = structuredClone(cached);
    this.#set(crd, {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionInProgress',
      message: 'CustomResource deletion is in progress',
    });
    const updated = await this.#updateStatus(crd, signal);
    if (updated === undefined) return;
    crd = updated;
    if (conditionTrue(crd, 'Established')) {
      const result = await this.#deleteInstances(crd, signal);
      this.#set(crd, result.condition);
      if (result.error !== undefined) {
        await this.#updateStatus(crd, signal).catch(() => undefined);
        throw result.error;
      }
    } else {
      this.#set(crd, {
        type: 'Terminating',
        status: 'False',
        reason: 'NeverEstablished',
        message: 'resource was never established',
      });
    }
    const meta2 = metaOf(crd);
    const rest = (Array.isArray(meta2['finalizers']) ? meta2['finalizers'] : []).filter(
      (f) => f !== cleanupFinalizer,
    );
    if (rest.length > 0) meta2['finalizers'] = rest;
    else delete meta2['finalizers'];
    await this.#updateStatus(crd, signal);
  }

  async #list(path: string, signal: AbortSignal): Promise<JsonObject[]> {
    const list = await this.#o.client.request('GET', path, { signal });
    return Array.isArray(list['items']) ? list['items'].filter(isJsonObject) : [];
  }

  async #deleteInstances(
    crd: JsonObject,
    signal: AbortSignal,
  ): Promise<{ condition: CrdCondition; error?: Error }> {
    const failed = (
      reason: string,
      text: string,
      err: unknown,
    ): { condition: CrdCondition; error: Error } => ({
      condition: { type: 'Terminating', status: 'True', reason, message: `${text}: ${message(err)}` },
      error: err instanceof Error ? err : new Error(String(err)),
    });
    const base = instancesPath(crd);
    if (base === undefined) {
      return failed(
        'InstanceDeletionFailed',
        'could not list instances',
        new Error(
          `unable to find a custom resource client for ${crd['metadata'] !== undefined ? name(crd) : ''}`,
        ),
      );
    }
    let items: JsonObject[];
    try {
      items = await this.#list(base, signal);
    } catch (err) {
      return failed('InstanceDeletionFailed', 'could not list instances', err);
    }
    const namespaces = new Set(items.map((i) => str(metaOf(i), 'namespace')));
    const errors: string[] = [];
    for (const ns of namespaces) {
      try {
        await this.#o.client.request('DELETE', namespacedPath(crd, base, ns), { signal });
      } catch (err) {
        errors.push(message(err));
      }
    }
    if (errors.length > 0) {
      return failed(
        'InstanceDeletionFailed',
        'could not issue all deletes',
        new Error(errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`),
      );
    }
    const deadline = this.#clock.now() + 60_000;
    for (;;) {
      let left: number;
      try {
        left = (await this.#list(base, signal)).length;
      } catch (err) {
        return failed('InstanceDeletionCheck', 'could not confirm zero CustomResources remaining', err);
      }
      if (left === 0) break;
      if (this.#clock.now() >= deadline) {
        return failed(
          'InstanceDeletionCheck',
          'could not confirm zero CustomResources remaining',
          new Error('timed out waiting for the condition'),
        );
      }
      await this.#clock.sleep(this.#o.pollMs ?? 5000, signal);
      if (signal.aborted) throw new Error('stopped');
    }
    return {
      condition: {
        type: 'Terminating',
        status: 'False',
        reason: 'InstanceDeletionCompleted',
        message: 'removed all instances',
      },
    };
  }
}

function name(crd: JsonObject): string {
  return str(metaOf(crd), 'name');
}
