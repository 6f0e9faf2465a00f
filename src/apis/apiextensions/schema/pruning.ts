/**
 * Pruning of fields a structural schema does not specify, as apiextensions-apiserver v0.27
 * pkg/apiserver/schema/pruning/algorithm.go: unknown fields are removed in place (unless
 * x-kubernetes-preserve-unknown-fields), apiVersion, kind and metadata of the resource and of
 * embedded resources are kept (metadata is pruned to ObjectMeta by objectmeta.ts's coerce), and
 * the removed paths are returned sorted (`spec.foo`, `spec.list[0].bar`) for fieldValidation.
 */
import { isJsonObject } from '../../../util/json.js';
import type { JsonValue } from '../../../util/json.js';
import { asResourceRoot } from './structural.js';
import type { Structural } from './structural.js';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/** Upstream UnknownFieldPathOptions: the path walked so far and the unknown fields found. */
class UnknownFields {
  readonly #track: boolean;
  readonly paths: string[] = [];
  parent: string[] = [];

  constructor(track: boolean) {
    this.#track = track;
  }

  record(field: string): void {
    if (!this.#track) return;
    const l = this.parent.length;
    this.appendKey(field);
    this.paths.push(this.parent.join(''));
    this.parent.length = l;
  }

  appendKey(key: string): void {
    if (!this.#track) return;
    if (this.parent.length > 0) this.parent.push('.');
    this.parent.push(key);
  }

  appendIndex(i: number): void {
    if (!this.#track) return;
    this.parent.push('[', String(i), ']');
  }
}

export interface PruneOptions {
  /** Collect the paths of the pruned fields (upstream TrackUnknownFieldPaths). */
  readonly trackUnknownFieldPaths?: boolean;
}

/**
 * Upstream PruneWithOptions: removes unknown fields from `obj` in place; returns the sorted paths
 * of the removed fields when tracking (otherwise an empty list).
 */
export function prune(
  obj: JsonValue,
  schema: Structural | undefined,
  isResourceRoot: boolean,
  options: PruneOptions = {},
): string[] {
  const s = isResourceRoot ? asResourceRoot(schema) : schema;
  const u = new UnknownFields(options.trackUnknownFieldPaths === true);
  pruneValue(obj, s, u);
  return u.paths.sort();
}

function pruneValue(x: JsonValue, s: Structural | undefined, u: UnknownFields): void {
  if (s?.extensions.preserveUnknownFields === true) {
    skipPrune(x, s, u);
    return;
  }
  const depth = u.parent.length;
  if (Array.isArray(x)) {
    x.forEach((v, i) => {
      u.appendIndex(i);
      pruneValue(v, s?.items, u);
      u.parent.length = depth;
    });
    return;
  }
  if (!isJsonObject(x)) return;
  for (const k of Object.keys(x)) {
    if (s === undefined) {
      u.record(k);
      delete x[k];
      continue;
    }
    if (s.extensions.embeddedResource && metaFields.has(k)) continue;
    const prop = s.properties?.get(k);
    const ap = s.generic.additionalProperties;
    if (prop !== undefined) {
      u.appendKey(k);
      pruneValue(x[k]!, prop, u);
      u.parent.length = depth;
    } else if (ap !== undefined) {
      u.appendKey(k);
      pruneValue(x[k]!, ap.structural, u);
      u.parent.length = depth;
    } else {
      if (!metaFields.has(k) || u.parent.length > 0) u.record(k);
      delete x[k];
    }
  }
}

/** Below x-kubernetes-preserve-unknown-fields: only specified properties are pruned further. */
function skipPrune(x: JsonValue, s: Structural | undefined, u: UnknownFields): void {
  if (s === undefined) return;
  const depth = u.parent.length;
  if (Array.isArray(x)) {
    x.forEach((v, i) => {
      u.appendIndex(i);
      skipPrune(v, s.items, u);
      u.parent.length = depth;
    });
    return;
  }
  if (!isJsonObject(x)) return;
  for (const k of Object.keys(x)) {
    if (s.extensions.embeddedResource && metaFields.has(k)) continue;
    const prop = s.properties?.get(k);
    const ap = s.generic.additionalProperties;
    if (prop !== undefined) {
      u.appendKey(k);
      pruneValue(x[k]!, prop, u);
      u.parent.length = depth;
    } else if (ap !== undefined) {
      u.appendKey(k);
      pruneValue(x[k]!, ap.structural, u);
      u.parent.length = depth;
    }
  }
}
