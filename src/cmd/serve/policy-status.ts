/**
 * The ValidatingAdmissionPolicy status controller (AM-07; upstream's policy controller
 * reconcilePolicyStatus, run inside kube-apiserver): follows the stored policies and, for each
 * whose status.observedGeneration is behind its generation, type-checks its validations against
 * the kinds it matches and writes status.typeChecking.expressionWarnings and
 * status.observedGeneration through /status. A failed write is logged and retried on the next
 * change, as upstream ignores it; the check never affects what a policy decides.
 */
import type { TypeCheckSchemas } from '../../admission/validating-admission-policy/type-check.js';
import { resolvedJsonSchema } from '../../apis/schema/resolved-json.js';
import type { SchemaRegistry } from '../../apis/schema/types.js';
import type { KubeObject } from '../../machinery/object.js';
import { serverUser } from '../../machinery/user.js';
import type { GenericStore } from '../../registry/generic/store.js';
import { servedVersionsOf } from '../../registry/versioned-store.js';
import type { ObjectStore } from '../../storage/interfaces.js';
import type { JsonObject } from '../../util/json.js';
import type { Logger } from '../../util/log.js';
import { followPrefix, type PrefixFollower } from './follow-prefix.js';

export interface PolicyStatusOptions {
  readonly policies: GenericStore;
  readonly storage: ObjectStore;
  /** Every served resource's store, custom resources' included. */
  readonly stores: () => Iterable<GenericStore>;
  readonly schemas: SchemaRegistry;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

function generation(o: KubeObject): number {
  return o.metadata.generation ?? 0;
}

function observedGeneration(o: KubeObject): number {
  const status = (o as unknown as JsonObject)['status'];
  const v =
    typeof status === 'object' && status !== null && !Array.isArray(status)
      ? status['observedGeneration']
      : undefined;
  return typeof v === 'number' ? v : 0;
}

export function typeCheckSchemas(
  stores: () => Iterable<GenericStore>,
  schemas: SchemaRegistry,
): TypeCheckSchemas {
  const versionsOf = function* () {
    for (const store of stores()) yield* servedVersionsOf(store.resource).map((v) => v.info);
  };
  return {
    kindsFor: (group, version, resource) => {
      for (const info of versionsOf()) {
        if (info.group === group && info.version === version && info.resource === resource) {
          return [{ group, version, kind: info.kind }];
        }
      }
      return [];
    },
    schemaFor: (gvk) => {
      for (const info of versionsOf()) {
        if (info.group === gvk.group && info.version === gvk.version && info.kind === gvk.kind) {
          return resolvedJsonSchema(schemas, info.definition);
        }
      }
      return undefined;
    },
  };
}

export function followPolicyStatus(o: PolicyStatusOptions): PrefixFollower {
  const schemas = typeCheckSchemas(o.stores, o.schemas);
  // One write at a time, in the order changes arrive.
  let queue = Promise.resolve();
  const reconcile = async (policy: KubeObject): Promise<void> => {
    if (observedGeneration(policy) >= generation(policy)) return;
    // The type checker brings the CEL engine: loaded with the first policy, not at start.
    const { typeCheckPolicy } = await import('../../admission/validating-admission-policy/type-check.js');
    const warnings = typeCheckPolicy(policy, schemas);
    const name = policy.metadata.name ?? '';
    try {
      await o.policies.update(
        '',
        name,
        (current) => {
          if (current === undefined || generation(current) !== generation(policy)) throw new SkipStaleError();
          const status = (current as unknown as JsonObject)['status'];
          const next: JsonObject = {
            ...(typeof status === 'object' && status !== null && !Array.isArray(status) ? status : {}),
            observedGeneration: generation(current),
            typeChecking:
              warnings.length > 0
                ? { expressionWarnings: warnings.map((w) => ({ fieldRef: w.fieldRef, warning: w.warning })) }
                : {},
          };
          return { ...current, status: next };
        },
        {
          dryRun: false,
          user: serverUser,
          subresource: 'status',
          ...(o.policies.resource.statusStrategy !== undefined
            ? { strategy: o.policies.resource.statusStrategy }
            : {}),
        },
      );
    } catch (err) {
      if (err instanceof SkipStaleError || o.signal.aborted) return;
      o.log.error(
        `validating admission policy status: ${name}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  };
  return followPrefix({
    storage: o.storage,
    prefix: o.policies.prefix(''),
    signal: o.signal,
    log: o.log,
    what: 'validating admission policy status',
    reset: () => undefined,
    apply: (policy, deleted) => {
      if (deleted) return;
      queue = queue.then(() => reconcile(policy));
    },
  });
}

/** The policy changed again (or went away) before its status was written: the newer event handles it. */
class SkipStaleError extends Error {}
