/**
 * The admission chain: the enabled plugins in upstream's order, as the two callbacks the registry
 * takes. Every mutating step runs first (before the strategy prepares and validates the object),
 * then, right before the write, every validating step; the first to throw denies the request.
 */
import type { AdmissionAttributes, ObjectAttributes } from './attributes.js';
import type { AdmissionPlugin, MutationRound } from './plugin.js';

export interface AdmissionChain {
  readonly plugins: readonly AdmissionPlugin[];
  /** Creates and updates (with an object) and deletes (without). */
  readonly mutate: (a: ObjectAttributes | AdmissionAttributes) => Promise<void>;
  readonly validate: (a: AdmissionAttributes) => Promise<void>;
}

export function admissionChain(plugins: readonly AdmissionPlugin[]): AdmissionChain {
  const mutating = plugins.filter((p) => p.admit !== undefined);
  const mutatingDeletes = plugins.filter((p) => p.admitDelete !== undefined);
  const validating = plugins.filter((p) => p.validate !== undefined);
  return {
    plugins,
    // A step that answers synchronously (most, for most requests) costs no microtask turn.
    // When a step asks for it, the whole mutating chain runs a second time (upstream's reinvoker).
    mutate: async (given) => {
      if (given.object === undefined) {
        for (const p of mutatingDeletes) {
          if (!p.operations.has(given.operation)) continue;
          const pending = p.admitDelete!(given);
          if (pending !== undefined) await pending;
        }
        return;
      }
      const a = given as ObjectAttributes;
      let requested = false;
      const round: { reinvoke: boolean } & MutationRound = {
        reinvoke: false,
        requestReinvocation: () => {
          requested = true;
        },
        state: new Map(),
      };
      for (let pass = 0; pass < 2; pass++) {
        for (const p of mutating) {
          if (!p.operations.has(a.operation)) continue;
          const pending = p.admit!(a, round);
          if (pending !== undefined) await pending;
        }
        if (!requested) return;
        round.reinvoke = true;
        requested = false;
      }
    },
    validate: async (a) => {
      for (const p of validating) {
        if (!p.operations.has(a.operation)) continue;
        const pending = p.validate!(a);
        if (pending !== undefined) await pending;
      }
    },
  };
}

/** Several callbacks as one, run in the order given (kept for the plugins' own tests). */
export function chainAdmission<A>(
  plugins: readonly ((attrs: A) => Promise<void>)[],
): (attrs: A) => Promise<void> {
  return async (attrs) => {
    for (const plugin of plugins) await plugin(attrs);
  };
}
