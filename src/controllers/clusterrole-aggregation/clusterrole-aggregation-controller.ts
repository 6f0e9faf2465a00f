/**
 * The ClusterRole aggregation controller (upstream v1.27 pkg/controller/clusterroleaggregation):
 * a ClusterRole with an `aggregationRule` gets, as its rules, the rules of every other ClusterRole
 * its selectors match (each selector's roles in name order, a rule taken once), written by
 * server-side apply with field manager `clusterrole-aggregation-controller` (forced). Any change
 * to any ClusterRole queues every aggregated ClusterRole, so `admin`, `edit` and `view` follow the
 * `aggregate-to-*` roles, custom resources' roles included.
 */
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import { asSelector } from '../../machinery/labels/metav1.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { arr, name, obj } from '../util/objects.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';

export interface ClusterRoleAggregationControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
}

const clusterRolesPath = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
export const aggregationFieldManager = 'clusterrole-aggregation-controller';

const ruleFields = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

/** A rule with its lists only (empty and absent alike, as upstream's semantic equality). */
function normalRule(v: JsonValue): JsonObject {
  const r = obj(v);
  const out: JsonObject = {};
  for (const f of ruleFields) {
    const l = arr(r[f]).filter((x): x is string => typeof x === 'string');
    if (l.length > 0) out[f] = l;
  }
  return out;
}

const ruleKey = (r: JsonObject): string => JSON.stringify(ruleFields.map((f) => r[f] ?? []));

/** The rules an aggregated role should have (upstream syncClusterRole), from every role known. */
export function aggregatedRules(role: JsonObject, all: readonly JsonObject[]): JsonObject[] | undefined {
  const rule = role['aggregationRule'];
  if (!isJsonObject(rule)) return undefined;
  const out: JsonObject[] = [];
  const seen = new Set<string>();
  for (const sel of arr(rule['clusterRoleSelectors'])) {
    const s = asSelector(isJsonObject(sel) ? sel : undefined);
    if (!s.ok) throw new Error(`clusterrole ${name(role)}: invalid aggregation selector`);
    const matching = all
      .filter((r) => s.matches(labelsOf(r)))
      .sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
    for (const other of matching) {
      if (name(other) === name(role)) continue;
      for (const r of arr(other['rules'])) {
        const n = normalRule(r);
        const key = ruleKey(n);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(n);
      }
    }
  }
  return out;
}

function labelsOf(o: JsonObject): Record<string, string> {
  const l = obj(obj(o['metadata'])['labels']);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(l)) if (typeof v === 'string') out[k] = v;
  return out;
}

export class ClusterRoleAggregationController {
  readonly #o: ClusterRoleAggregationControllerOptions;
  readonly #queue: WorkQueue;
  #informer: SharedInformer | undefined;

  constructor(o: ClusterRoleAggregationControllerOptions) {
    this.#o = o;
    this.#queue = controllerQueue('ClusterRoleAggregator', o.onError);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const informer = this.#o.informers.informerFor(clusterRolesPath);
    this.#informer = informer;
    // Upstream's enqueue: every aggregated role, whatever role changed.
    const enqueue = (): void => {
      for (const r of informer.store.list()) if (isJsonObject(r['aggregationRule'])) this.#queue.add(name(r));
    };
    const reg = informer.addEventHandler({ onAdd: enqueue, onUpdate: enqueue, onDelete: enqueue });
    try {
      if (!(await informersSynced([informer], signal))) return;
      await runWorkers(this.#queue, 5, (key) => this.#sync(key, signal), signal);
    } finally {
      reg.remove();
    }
  }

  async #sync(key: string, signal: AbortSignal): Promise<undefined> {
    const informer = this.#informer;
    const role = informer?.store.get(key);
    if (informer === undefined || role === undefined) return undefined;
    const rules = aggregatedRules(role, informer.store.list());
    if (rules === undefined) return undefined;
    const current = arr(role['rules']).map(normalRule);
    if (JSON.stringify(current.map(ruleKey)) === JSON.stringify(rules.map(ruleKey))) return undefined;
    const query = `?fieldManager=${aggregationFieldManager}&force=true`;
    await this.#o.client.request('PATCH', `${clusterRolesPath}/${encodeURIComponent(key)}${query}`, {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: key },
        rules,
      },
      contentType: 'application/apply-patch+yaml',
      signal,
    });
    return undefined;
  }
}
