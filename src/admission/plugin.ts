/**
 * One admission plugin (upstream admission.Interface with MutationInterface and
 * ValidationInterface): the operations it handles, and a mutating step, a validating step or
 * both. Built-in plugins, and later webhooks and ValidatingAdmissionPolicy, all implement it; a
 * step denies by throwing a StatusError (see errors.ts for upstream's Forbidden shape).
 */
import type { AdmissionAttributes, AdmissionOperation, ObjectAttributes } from './attributes.js';

export interface AdmissionPlugin {
  /** The name `--enable-admission-plugins` knows it by. */
  readonly name: string;
  /** The operations the plugin acts on (upstream admission.Handler). */
  readonly operations: ReadonlySet<AdmissionOperation>;
  /**
   * May change `a.object` in place. Called only when the request carries an object; called again
   * (with `round.reinvoke`) when a step of the first pass asked for reinvocation.
   */
  readonly admit?: (a: ObjectAttributes, round?: MutationRound) => Promise<void> | void;
  /**
   * The mutating step for a delete, which carries no object (upstream calls mutating admission
   * for deletes with none); only plugins that have one take part.
   */
  readonly admitDelete?: (a: AdmissionAttributes) => Promise<void> | void;
  readonly validate?: (a: AdmissionAttributes) => Promise<void> | void;
}

/**
 * Upstream's admission.ReinvocationContext for one request: a mutating webhook whose patch changed
 * the object asks for a second pass of the whole mutating chain (reinvocationPolicy IfNeeded);
 * `state` keeps each plugin's bookkeeping between the passes.
 */
export interface MutationRound {
  readonly reinvoke: boolean;
  requestReinvocation(): void;
  readonly state: Map<string, unknown>;
}

export const createUpdate: ReadonlySet<AdmissionOperation> = new Set(['CREATE', 'UPDATE']);
export const createOnly: ReadonlySet<AdmissionOperation> = new Set(['CREATE']);
export const updateOnly: ReadonlySet<AdmissionOperation> = new Set(['UPDATE']);
export const allOperations: ReadonlySet<AdmissionOperation> = new Set([
  'CREATE',
  'UPDATE',
  'DELETE',
  'CONNECT',
]);

/**
 * A plugin refusing the server's configuration once built (upstream ValidateInitialization):
 * the start fails with `failed to initialize admission: …` rather than `couldn't init …`.
 */
export class InitializationError extends Error {
  override readonly name = 'InitializationError';
}
