/**
 * Building blocks for resource strategies: most kinds differ only in validation and in whether they
 * have a status and a spec. `defineStrategy` fills in upstream's common behaviour.
 */
import { zeroFieldValue } from '../../apis/decode/zero.js';
import { builtinSchemas } from '../../apis/schema/builtin.js';
import type { FieldError } from '../../machinery/field/errors.js';
import type { KubeObject, ObjectMeta } from '../../machinery/object.js';
import { jsonEqual } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import type { NameValidation, RESTStrategy, StrategyContext } from '../strategy.js';

export interface StrategyOptions {
  readonly namespaced: boolean;
  readonly nameValidation?: NameValidation;
  /** The kind has a status the main resource may not write (it is reset on create, kept on update). */
  readonly hasStatus?: boolean;
  /** metadata.generation is bumped when anything but metadata and status changes. */
  readonly tracksGeneration?: boolean;
  readonly allowCreateOnUpdate?: boolean;
  readonly allowUnconditionalUpdate?: boolean;
  /** RESTStrategy.loadValidation. */
  readonly loadValidation?: () => Promise<void> | undefined;
  readonly validate?: (ctx: StrategyContext, obj: KubeObject) => FieldError[];
  readonly validateUpdate?: (ctx: StrategyContext, obj: KubeObject, old: KubeObject) => FieldError[];
  readonly warningsOnCreate?: (ctx: StrategyContext, obj: KubeObject) => string[];
  readonly warningsOnUpdate?: (ctx: StrategyContext, obj: KubeObject, old: KubeObject) => string[];
  /** Extra preparation after the common one. */
  readonly prepareForCreate?: (ctx: StrategyContext, obj: KubeObject) => void;
  readonly prepareForUpdate?: (ctx: StrategyContext, obj: KubeObject, old: KubeObject) => void;
  readonly canonicalize?: (obj: KubeObject) => void;
}

/** True when anything outside metadata and status differs (what bumps generation upstream). */
export function specChanged(obj: KubeObject, old: KubeObject): boolean {
  const keys = new Set([...Object.keys(obj), ...Object.keys(old)]);
  for (const k of keys) {
    if (k === 'metadata' || k === 'status' || k === 'apiVersion' || k === 'kind') continue;
    if (!jsonEqual(obj[k], old[k])) return true;
  }
  return false;
}

/** The kind's zero status as upstream prints it (`{}`, or e.g. `{replicas: 0}` for a ReplicaSet). */
export function zeroStatus(obj: KubeObject): JsonObject {
  const zero = zeroFieldValue({
    registry: builtinSchemas(),
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    field: 'status',
  });
  return zero ?? {};
}

export function defineStrategy(o: StrategyOptions): RESTStrategy {
  return {
    namespaced: o.namespaced,
    nameValidation: o.nameValidation ?? 'dns1123Subdomain',
    allowCreateOnUpdate: o.allowCreateOnUpdate ?? false,
    allowUnconditionalUpdate: o.allowUnconditionalUpdate ?? true,
    ...(o.loadValidation !== undefined ? { loadValidation: o.loadValidation } : {}),
    prepareForCreate(ctx, obj) {
      // Upstream resets status to the zero struct, which prints (never omitted).
      if (o.hasStatus === true) obj['status'] = zeroStatus(obj);
      if (o.tracksGeneration === true) obj.metadata.generation = 1;
      o.prepareForCreate?.(ctx, obj);
    },
    validate: (ctx, obj) => o.validate?.(ctx, obj) ?? [],
    warningsOnCreate: (ctx, obj) => o.warningsOnCreate?.(ctx, obj) ?? [],
    canonicalize: (obj) => o.canonicalize?.(obj),
    prepareForUpdate(ctx, obj, old) {
      if (o.hasStatus === true) {
        obj['status'] = old['status'] ?? zeroStatus(obj);
      }
      if (o.tracksGeneration === true) {
        const oldGen = old.metadata.generation ?? 0;
        obj.metadata.generation = specChanged(obj, old) ? oldGen + 1 : oldGen;
      }
      o.prepareForUpdate?.(ctx, obj, old);
    },
    validateUpdate: (ctx, obj, old) => o.validateUpdate?.(ctx, obj, old) ?? [],
    warningsOnUpdate: (ctx, obj, old) => o.warningsOnUpdate?.(ctx, obj, old) ?? [],
  };
}

/**
 * What a `/status` write takes of the stored object's metadata; upstream's status strategies
 * differ. `new` keeps the request's labels, annotations, finalizers and ownerReferences (most
 * kinds: their PrepareForUpdate resets only the spec); `reset` is metav1.ResetObjectMetaForStatus
 * (deletionTimestamp, generation, selfLink, labels, annotations, finalizers and ownerReferences
 * from the stored object); `stored` keeps all stored metadata but managedFields (flowcontrol); a
 * list names the fields taken from the stored object (Deployment: labels; Pod: ownerReferences).
 * System fields (uid, creationTimestamp, generation, deletion fields) are restored by the store
 * for every update, as upstream's rest.BeforeUpdate.
 */
export type StatusMetadata = 'new' | 'reset' | 'stored' | readonly (keyof ObjectMeta)[];

const resetForStatus: readonly (keyof ObjectMeta)[] = [
  'deletionTimestamp',
  'generation',
  'selfLink',
  'labels',
  'annotations',
  'finalizers',
  'ownerReferences',
];

function statusMetadata(policy: StatusMetadata, meta: ObjectMeta, old: ObjectMeta): ObjectMeta {
  if (policy === 'new') return meta;
  if (policy === 'stored') {
    const out: ObjectMeta = { ...old };
    if (meta.managedFields !== undefined) out.managedFields = meta.managedFields;
    else delete out.managedFields;
    return out;
  }
  const out: ObjectMeta = { ...meta };
  for (const f of policy === 'reset' ? resetForStatus : policy) {
    const v = old[f];
    if (v === undefined) delete out[f];
    else out[f] = v;
  }
  return out;
}

/**
 * The strategy of a `/status` subresource: only status (and, per `metadata`, some metadata)
 * changes; everything else is copied from the stored object (upstream's StatusStrategy
 * PrepareForUpdate).
 */
export function defineStatusStrategy(
  main: RESTStrategy,
  o: {
    readonly validateUpdate?: (ctx: StrategyContext, obj: KubeObject, old: KubeObject) => FieldError[];
    /** Default `new`: the request's labels, annotations, finalizers and ownerReferences are kept. */
    readonly metadata?: StatusMetadata;
  } = {},
): RESTStrategy {
  const policy = o.metadata ?? 'new';
  return {
    ...main,
    prepareForCreate() {},
    prepareForUpdate(_ctx, obj, old) {
      const status = obj['status'];
      const meta = statusMetadata(policy, obj.metadata, old.metadata);
      for (const k of Object.keys(obj)) if (k !== 'status') delete obj[k];
      for (const k of Object.keys(old)) if (k !== 'status') obj[k] = old[k]!;
      obj.metadata = meta;
      if (status === undefined) delete obj['status'];
      else obj['status'] = status;
    },
    validateUpdate: (ctx, obj, old) => o.validateUpdate?.(ctx, obj, old) ?? [],
    warningsOnUpdate: () => [],
  };
}
