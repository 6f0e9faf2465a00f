/**
 * The naming condition controller and the establishing controller (apiextensions-apiserver v0.27
 * pkg/controller/status/naming_controller.go, pkg/controller/establish): a CRD's requested names
 * are accepted unless another CRD of the same group already uses them (NamesAccepted True
 * "NoConflicts", or False with "PluralConflict"…), and a CRD whose names are accepted becomes
 * Established ("InitialNamesAccepted") — at once, as with one API server.
 */
import { ApiError } from '../../client/api-error.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import { WorkQueue } from '../../client/workqueue.js';
import { realClock } from '../../util/clock.js';
import type { Clock } from '../../util/clock.js';
import { isJsonObject, jsonEqual } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { conditionTrue, crdsPath, equivalent, findCondition, setCondition } from './conditions.js';
import type { CrdCondition } from './conditions.js';

export interface NamingControllerOptions {
  readonly client: RestClient;
  /** The informer of every CRD (`crdsPath`). */
  readonly crds: SharedInformer;
  readonly clock?: Clock;
  readonly onError?: (err: unknown) => void;
}

interface Names {
  plural?: string;
  singular?: string;
  shortNames?: string[];
  kind?: string;
  listKind?: string;
  categories?: string[];
}

function namesAt(crd: JsonObject, ...path: string[]): Names {
  let v: JsonValue | undefined = crd;
  for (const p of path) v = isJsonObject(v) ? v[p] : undefined;
  return isJsonObject(v) ? v : {};
}

function groupOf(crd: JsonObject): string {
  const spec = crd['spec'];
  return isJsonObject(spec) && typeof spec['group'] === 'string' ? spec['group'] : '';
}

function nameOf(crd: JsonObject): string {
  const meta = crd['metadata'];
  return isJsonObject(meta) && typeof meta['name'] === 'string' ? meta['name'] : '';
}

function conflictOrGone(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 404 || err.code === 409);
}

/** equalToAcceptedOrFresh. */
function inUse(
  requested: string | undefined,
  accepted: string | undefined,
  used: Set<string>,
): string | undefined {
  const r = requested ?? '';
  if (r === (accepted ?? '') || !used.has(r)) return undefined;
  return `"${r}" is already in use`;
}

export class NamingController {
  readonly #o: NamingControllerOptions;
  readonly #queue: WorkQueue;
  readonly #clock: Clock;

  constructor(o: NamingControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    const onError = o.onError;
    this.#queue = new WorkQueue({
      ...(onError !== undefined ? { onError: (err: unknown) => onError(err) } : {}),
      ...(o.clock !== undefined ? { clock: o.clock } : {}),
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    const enqueue = (crd: JsonObject): void => this.#queue.add(nameOf(crd));
    const requeueGroup = (crd: JsonObject): void => {
      // A deleted CRD frees its names for the rest of its group.
      const group = groupOf(crd);
      for (const other of this.#o.crds.store.list()) if (groupOf(other) === group) enqueue(other);
    };
    const registration = this.#o.crds.addEventHandler({
      onAdd: enqueue,
      onUpdate: (_old, crd) => enqueue(crd),
      onDelete: requeueGroup,
    });
    try {
      await this.#queue.run(async (name) => {
        await this.#sync(name, signal);
        return undefined;
      }, signal);
    } finally {
      registration.remove();
    }
  }

  /** Names used by the other CRDs of the group: resources and kinds. */
  #usedNames(crd: JsonObject): { resources: Set<string>; kinds: Set<string> } {
    const resources = new Set<string>();
    const kinds = new Set<string>();
    const group = groupOf(crd);
    for (const other of this.#o.crds.store.list()) {
      if (groupOf(other) !== group || nameOf(other) === nameOf(crd)) continue;
      const a = namesAt(other, 'status', 'acceptedNames');
      for (const n of [a.plural, a.singular, ...(a.shortNames ?? [])]) if (n) resources.add(n);
      for (const n of [a.kind, a.listKind]) if (n) kinds.add(n);
    }
    return { resources, kinds };
  }

  async #sync(name: string, signal: AbortSignal): Promise<void> {
    const crd = this.#o.crds.store.get(name);
    if (crd === undefined) return;
    const requested = namesAt(crd, 'spec', 'names');
    const accepted = namesAt(crd, 'status', 'acceptedNames');
    const namesEqual = jsonEqual(requested as JsonValue, accepted as JsonValue);
    if (!namesEqual) {
      await this.#acceptNames(crd, requested, accepted, signal);
      return;
    }
    // The establishing controller's part: names accepted, not yet Established.
    if (conditionTrue(crd, 'NamesAccepted') && !conditionTrue(crd, 'Established')) {
      const copy = structuredClone(crd);
      setCondition(
        copy,
        {
          type: 'Established',
          status: 'True',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
        },
        new Date(this.#clock.now()),
      );
      await this.#updateStatus(name, copy, signal);
    }
  }

  async #acceptNames(crd: JsonObject, requested: Names, accepted: Names, signal: AbortSignal): Promise<void> {
    const { resources, kinds } = this.#usedNames(crd);
    const next: Names = { ...accepted };
    let condition: CrdCondition = { type: 'NamesAccepted', status: 'Unknown' };
    const conflict = (reason: string, message: string): void => {
      condition = { type: 'NamesAccepted', status: 'False', reason, message };
    };
    const check = (field: 'plural' | 'singular', reason: string): void => {
      const err = inUse(requested[field], accepted[field], resources);
      if (err !== undefined) conflict(reason, err);
      else if (requested[field] !== undefined) next[field] = requested[field];
    };
    check('plural', 'PluralConflict');
    check('singular', 'SingularConflict');
    if (!jsonEqual(requested.shortNames ?? null, accepted.shortNames ?? null)) {
      const existing = new Set(accepted.shortNames ?? []);
      const errs = (requested.shortNames ?? [])
        .filter((s) => !existing.has(s))
        .map((s) => inUse(s, '', resources))
        .filter((e): e is string => e !== undefined);
      if (errs.length > 0)
        conflict('ShortNamesConflict', errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);
      else if (requested.shortNames !== undefined) next.shortNames = requested.shortNames;
      else delete next.shortNames;
    }
    for (const [field, reason] of [
      ['kind', 'KindConflict'],
      ['listKind', 'ListKindConflict'],
    ] as const) {
      const err = inUse(requested[field], accepted[field], kinds);
      if (err !== undefined) conflict(reason, err);
      else if (requested[field] !== undefined) next[field] = requested[field];
    }
    if (requested.categories !== undefined) next.categories = requested.categories;
    else delete next.categories;
    if (condition.status === 'Unknown') {
      condition = {
        type: 'NamesAccepted',
        status: 'True',
        reason: 'NoConflicts',
        message: 'no conflicts found',
      };
    }
    let established: CrdCondition = {
      type: 'Established',
      status: 'False',
      reason: 'NotAccepted',
      message: 'not all names are accepted',
    };
    const old = findCondition(crd, 'Established');
    if (old !== undefined) {
      established = {
        type: 'Established',
        status: old['status'] === 'True' ? 'True' : old['status'] === 'Unknown' ? 'Unknown' : 'False',
        ...(typeof old['reason'] === 'string' ? { reason: old['reason'] } : {}),
        ...(typeof old['message'] === 'string' ? { message: old['message'] } : {}),
      };
    }
    if (established.status !== 'True' && condition.status === 'True') {
      established = {
        type: 'Established',
        status: 'False',
        reason: 'Installing',
        message: 'the initial names have been accepted',
      };
    }
    if (
      jsonEqual(accepted as JsonValue, next as JsonValue) &&
      equivalent(condition, findCondition(crd, 'NamesAccepted'))
    ) {
      return;
    }
    const copy = structuredClone(crd);
    const status: JsonObject = isJsonObject(copy['status']) ? copy['status'] : {};
    status['acceptedNames'] = next as JsonObject;
    copy['status'] = status;
    const now = new Date(this.#clock.now());
    setCondition(copy, condition, now);
    setCondition(copy, established, now);
    await this.#updateStatus(nameOf(crd), copy, signal);
  }

  async #updateStatus(name: string, crd: JsonObject, signal: AbortSignal): Promise<void> {
    try {
      await this.#o.client.request('PUT', `${crdsPath}/${name}/status`, { body: crd, signal });
    } catch (err) {
      if (!conflictOrGone(err)) throw err;
    }
  }
}
