/**
 * Per-resource rules, as upstream's RESTCreateStrategy / RESTUpdateStrategy / RESTDeleteStrategy.
 * The create/update/delete flow exists once, in the generic store; a resource only says how its
 * objects are prepared, validated and warned about. A subresource (status, scale) is the same store
 * with another strategy.
 */
import type { FieldError } from '../machinery/field/errors.js';
import type { KubeObject } from '../machinery/object.js';
import type { NameValidation, StrategyContext } from '../machinery/validation-context.js';

export type { FeatureGateReader, NameValidation, StrategyContext } from '../machinery/validation-context.js';

export interface RESTStrategy {
  readonly namespaced: boolean;
  readonly nameValidation: NameValidation;
  /** Create through PUT on a missing object (upstream AllowCreateOnUpdate). */
  readonly allowCreateOnUpdate: boolean;
  /** Update with no resourceVersion in the body overwrites (upstream AllowUnconditionalUpdate). */
  readonly allowUnconditionalUpdate: boolean;
  /**
   * Code the validation needs that is loaded on first use (CEL and RE2 for CRDs and custom
   * resources): the store awaits the promise before it prepares a create or an update. Returns
   * undefined once loaded, so that later writes do not wait a turn.
   */
  readonly loadValidation?: () => Promise<void> | undefined;

  /** Clear fields the user may not set on create (status), set generation... */
  prepareForCreate(ctx: StrategyContext, obj: KubeObject): void;
  validate(ctx: StrategyContext, obj: KubeObject): FieldError[];
  warningsOnCreate(ctx: StrategyContext, obj: KubeObject): string[];
  /** Normalise after validation (e.g. sort or lower-case) before storing. */
  canonicalize(obj: KubeObject): void;

  /** Copy back what the user may not change (status on the main resource, spec on /status). */
  prepareForUpdate(ctx: StrategyContext, obj: KubeObject, old: KubeObject): void;
  validateUpdate(ctx: StrategyContext, obj: KubeObject, old: KubeObject): FieldError[];
  warningsOnUpdate(ctx: StrategyContext, obj: KubeObject, old: KubeObject): string[];
}

/** Graceful deletion rules (pods); resources without them delete at once. */
export interface GracefulDeleteStrategy {
  /**
   * The grace period to use: `requested` is the client's (absent: none given). Pods use 0 when
   * unscheduled or finished, whatever was asked (upstream CheckGracefulDelete).
   */
  gracePeriodSeconds(obj: KubeObject, requested: number | undefined): number;
}
