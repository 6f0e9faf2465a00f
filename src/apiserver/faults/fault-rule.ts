/**
 * Fault rules: which requests an injected fault hits (verb, resource, namespace, name, user), how
 * many (`count`; none: every one until removed) and what happens to them: a refusal with a status
 * (409, 429 with Retry-After, 500, 503, 504), a 410 Gone for an expired resourceVersion, added
 * latency (alone or before one of those), or, for watches, the watch closed (a clean end) or
 * dropped (the stream reset). Rules come from the library or a `--faults` YAML file; both are
 * checked here and refused with the field and the reason.
 */
import { GoDurationError, parseGoDuration } from '../../util/go-duration.js';

/** A fault to inject, as the library takes it and the `--faults` file holds it. */
export interface FaultRule {
  /** Request verbs (get, list, watch, create, update, patch, delete, deletecollection); none: all. */
  readonly verb?: string | readonly string[];
  /**
   * Resources: `pods`, `deployments.apps` (with its group), `pods/status` (a subresource), `*`;
   * none: every resource request.
   */
  readonly resource?: string | readonly string[];
  readonly namespace?: string;
  /** The object's name. */
  readonly name?: string;
  /** The user's name, e.g. `system:serviceaccount:ns:sa`. */
  readonly user?: string;
  /** How many matching requests (or watches) it hits before it is used up; none: no limit. */
  readonly count?: number;
  /** Refuse with this status. */
  readonly status?: 409 | 429 | 500 | 503 | 504;
  /** The Retry-After of a 429, 503 or 504 (default 1 for 429). */
  readonly retryAfterSeconds?: number;
  /** The Status message instead of the default one. */
  readonly message?: string;
  /** Answer 410 Gone as for a resourceVersion compacted away; informers relist. */
  readonly expire?: boolean;
  /** Delay the request by this much (milliseconds or Go duration text, e.g. `'250ms'`). */
  readonly latency?: number | string;
  /**
   * Watches only: `'close'` ends matching watches (open ones at once, new ones once started)
   * cleanly; `'drop'` cuts them off without an end, as a lost connection.
   */
  readonly watch?: 'close' | 'drop';
}

export class FaultRuleError extends Error {
  override readonly name = 'FaultRuleError';
}

const verbs = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection']);
const statuses = new Set([409, 429, 500, 503, 504]);
const fields = new Set([
  'verb',
  'resource',
  'namespace',
  'name',
  'user',
  'count',
  'status',
  'retryAfterSeconds',
  'message',
  'expire',
  'latency',
  'watch',
]);

/** A rule after checking: its matchers and its action. */
export interface CheckedRule {
  readonly verbs: ReadonlySet<string> | undefined;
  /** resource (plural), group (undefined: any), subresource (undefined: none asked, '*' any). */
  readonly resources: readonly { resource: string; group?: string; subresource?: string }[] | undefined;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly user: string | undefined;
  readonly count: number | undefined;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly message: string | undefined;
  readonly expire: boolean;
  readonly latencyMs: number;
  readonly watch: 'close' | 'drop' | undefined;
}

function strings(v: unknown, where: string): string[] | undefined {
  if (v === undefined) return undefined;
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === 'string' && x !== '')) {
    throw new FaultRuleError(`${where}: must be a non-empty string or list of strings`);
  }
  return list as string[];
}

function optionalString(v: unknown, where: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') throw new FaultRuleError(`${where}: must be a non-empty string`);
  return v;
}

/** Checks one rule (`where` names it in errors, e.g. `faults[2]`). */
export function checkFaultRule(value: unknown, where = 'fault'): CheckedRule {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FaultRuleError(`${where}: must be an object`);
  }
  const r = value as Record<string, unknown>;
  for (const k of Object.keys(r))
    if (!fields.has(k)) throw new FaultRuleError(`${where}: unknown field "${k}"`);
  const verbList = strings(r['verb'], `${where}.verb`);
  for (const v of verbList ?? []) {
    if (!verbs.has(v)) throw new FaultRuleError(`${where}.verb: unknown verb "${v}"`);
  }
  const resources = strings(r['resource'], `${where}.resource`)?.map((text) => {
    const [gr = '', subresource] = text.split('/', 2);
    const dot = gr.indexOf('.');
    const resource = dot < 0 ? gr : gr.slice(0, dot);
    return {
      resource,
      ...(dot >= 0 ? { group: gr.slice(dot + 1) } : {}),
      ...(subresource !== undefined ? { subresource } : {}),
    };
  });
  const count = r['count'];
  if (count !== undefined && (typeof count !== 'number' || !Number.isInteger(count) || count < 1)) {
    throw new FaultRuleError(`${where}.count: must be a whole number of at least 1`);
  }
  const status = r['status'];
  if (status !== undefined && (typeof status !== 'number' || !statuses.has(status))) {
    throw new FaultRuleError(`${where}.status: must be one of 409, 429, 500, 503, 504`);
  }
  const retry = r['retryAfterSeconds'];
  if (retry !== undefined && (typeof retry !== 'number' || !Number.isInteger(retry) || retry < 0)) {
    throw new FaultRuleError(`${where}.retryAfterSeconds: must be a whole number of seconds`);
  }
  if (retry !== undefined && status !== 429 && status !== 503 && status !== 504) {
    throw new FaultRuleError(`${where}.retryAfterSeconds: only with status 429, 503 or 504`);
  }
  const expire = r['expire'];
  if (expire !== undefined && typeof expire !== 'boolean') {
    throw new FaultRuleError(`${where}.expire: must be true or false`);
  }
  let latencyMs = 0;
  const latency = r['latency'];
  if (latency !== undefined) {
    try {
      latencyMs =
        typeof latency === 'number' ? latency : typeof latency === 'string' ? parseGoDuration(latency) : NaN;
    } catch (err) {
      if (!(err instanceof GoDurationError)) throw err;
      throw new FaultRuleError(`${where}.latency: ${err.message}`);
    }
    if (!Number.isFinite(latencyMs) || latencyMs < 0) {
      throw new FaultRuleError(`${where}.latency: must be a duration such as 250ms or 2s`);
    }
  }
  const watch = r['watch'];
  if (watch !== undefined && watch !== 'close' && watch !== 'drop') {
    throw new FaultRuleError(`${where}.watch: must be "close" or "drop"`);
  }
  const actions = [status !== undefined, expire === true, watch !== undefined].filter(Boolean).length;
  if (actions > 1) throw new FaultRuleError(`${where}: status, expire and watch exclude each other`);
  if (actions === 0 && latency === undefined) {
    throw new FaultRuleError(`${where}: says no fault: give status, expire, watch or latency`);
  }
  if (watch !== undefined && latency !== undefined) {
    throw new FaultRuleError(`${where}: latency does not apply to closing watches`);
  }
  if (watch !== undefined && verbList !== undefined && verbList.some((v) => v !== 'watch')) {
    throw new FaultRuleError(`${where}.verb: a watch fault applies to watch only`);
  }
  return {
    verbs: watch !== undefined ? new Set(['watch']) : verbList !== undefined ? new Set(verbList) : undefined,
    resources,
    namespace: optionalString(r['namespace'], `${where}.namespace`),
    name: optionalString(r['name'], `${where}.name`),
    user: optionalString(r['user'], `${where}.user`),
    count: count,
    status: status,
    retryAfterSeconds: retry,
    message: optionalString(r['message'], `${where}.message`),
    expire: expire === true,
    latencyMs,
    watch: watch,
  };
}

/** A `--faults` file's content: `faults:` and a list of rules (an empty file: none). */
export function checkFaultFile(value: unknown): CheckedRule[] {
  if (value === null || value === undefined) return [];
  if (typeof value !== 'object' || Array.isArray(value))
    throw new FaultRuleError('expected a mapping with "faults:"');
  const doc = value as Record<string, unknown>;
  for (const k of Object.keys(doc)) if (k !== 'faults') throw new FaultRuleError(`unknown field "${k}"`);
  const list = doc['faults'] ?? [];
  if (!Array.isArray(list)) throw new FaultRuleError('faults: must be a list of rules');
  return list.map((rule, i) => checkFaultRule(rule, `faults[${i}]`));
}
