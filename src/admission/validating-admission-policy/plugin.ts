/**
 * The ValidatingAdmissionPolicy admission plugin (apiserver v0.27 validatingadmissionpolicy
 * admission.go and controller.go Validate), behind the ValidatingAdmissionPolicy feature gate.
 * Policies, bindings and params are read from the watch caches (no storage read per request, and
 * a new or changed binding applies to the next request); each stored version of a policy is
 * compiled once. For every policy that matches the request and each of its bindings that does:
 * the param is fetched (paramKind + paramRef), the policy is evaluated (validator.ts), and each
 * failed validation is acted on per the binding's validationActions: Deny refuses the request
 * (the first denial is reported, with its reason and code), Warn adds a `Warning` header, Audit
 * adds the `validation.policy.admission.k8s.io/validation_failure` audit annotation.
 * Configuration problems (a missing param, an unknown paramKind, a selector error) follow the
 * policy's failurePolicy. Requests on policies and bindings themselves are never evaluated.
 */
import type { AdmissionActivation } from '../../cel/admission/index.js';
import { celAdmission, loadCelAdmission } from '../../cel/admission/load.js';
import { StatusError, apiErrors } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { AdmissionDependencies, ServedResource } from '../dependencies.js';
import { matchCriteria, matchRequest, equivalentsOf, type MatchCriteria } from '../matching/criteria.js';
import { admissionMetrics } from '../metrics.js';
import { upstreamAdmissionName } from '../new-forbidden.js';
import { allOperations, type AdmissionPlugin } from '../plugin.js';
import type { CompiledPolicy, compilePolicy as CompilePolicy } from './compiled-policy.js';
import { objectVersion } from './object-version.js';
import type { PolicyDecision, validatePolicy as ValidatePolicy } from './validator.js';

export const PLUGIN_NAME = 'ValidatingAdmissionPolicy';
const GROUP = 'admissionregistration.k8s.io';
const policiesGR = { group: GROUP, resource: 'validatingadmissionpolicies' };
const bindingsGR = { group: GROUP, resource: 'validatingadmissionpolicybindings' };
/** Audit annotation values are cut to 10 KiB. */
const MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024;
export const VALIDATION_FAILURE_ANNOTATION = 'validation.policy.admission.k8s.io/validation_failure';

function obj(o: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = o?.[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
}
function str(o: JsonObject | undefined, key: string): string {
  const v = o?.[key];
  return typeof v === 'string' ? v : '';
}
function strs(o: JsonObject | undefined, key: string): string[] {
  const v = o?.[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
function specOf(o: KubeObject): JsonObject | undefined {
  return obj(o, 'spec');
}
function byName(a: KubeObject, b: KubeObject): number {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

interface CompiledBinding {
  readonly version: string;
  /** Undefined: the binding does not narrow the policy's match. */
  readonly criteria?: MatchCriteria;
}

interface Denial {
  readonly policy: string;
  readonly binding?: string;
  readonly decision: PolicyDecision;
}

/** Upstream's status code for a validation's reason (policy_decision.go reasonToCode). */
function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403;
    case 'Unauthorized':
      return 401;
    case 'RequestEntityTooLarge':
      return 413;
    default:
      return 422;
  }
}

function denialError(a: AdmissionAttributes, d: Denial): StatusError {
  const message =
    d.binding !== undefined
      ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.decision.message}`
      : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.decision.message}`;
  const gr = { group: a.resource.group, resource: a.resource.resource };
  const forbidden = apiErrors.forbidden(gr, upstreamAdmissionName(a), message);
  const reason = d.decision.reason === '' ? 'Invalid' : d.decision.reason;
  return new StatusError(reasonToCode(reason), reason as StatusError['reason'], forbidden.message, {
    ...forbidden.status.details,
    causes: [{ message }],
  });
}

/** Audit annotation values of one policy across its bindings: duplicates dropped, distinct ones joined. */
class AuditAnnotationCollector {
  readonly #values = new Map<string, string[]>();
  add(key: string, value: string): void {
    const list = this.#values.get(key) ?? [];
    if (!list.includes(value)) list.push(value);
    this.#values.set(key, list);
  }
  publish(policy: string, a: AdmissionAttributes): void {
    for (const [key, values] of this.#values) a.addAuditAnnotation?.(`${policy}/${key}`, values.join(', '));
  }
}

function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0]! };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

export function validatingAdmissionPolicyPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  if (!deps.features.enabled('ValidatingAdmissionPolicy'))
    return { name: PLUGIN_NAME, operations: new Set() };
  const policies = new Map<string, CompiledPolicy>();
  const bindings = new Map<string, CompiledBinding>();
  // compiled-policy.ts and validator.ts bring the CEL engine: imported with the first binding, not
  // at start.
  let engine:
    Promise<{ compilePolicy: typeof CompilePolicy; validatePolicy: typeof ValidatePolicy }> | undefined;
  const compiledPolicy = (
    p: KubeObject,
    compilePolicy: (p: KubeObject) => CompiledPolicy,
  ): CompiledPolicy => {
    const key = p.metadata.uid ?? p.metadata.name ?? '';
    const cached = policies.get(key);
    if (cached?.version === objectVersion(p)) return cached;
    const compiled = compilePolicy(p);
    policies.set(key, compiled);
    return compiled;
  };
  const compiledBinding = (b: KubeObject): CompiledBinding => {
    const key = b.metadata.uid ?? b.metadata.name ?? '';
    const cached = bindings.get(key);
    if (cached?.version === objectVersion(b)) return cached;
    const resources = obj(specOf(b), 'matchResources');
    const compiled: CompiledBinding = {
      version: objectVersion(b),
      ...(resources !== undefined
        ? { criteria: matchCriteria(resources, { rulesKey: 'resourceRules', emptyRulesMatchAll: true }) }
        : {}),
    };
    bindings.set(key, compiled);
    return compiled;
  };
  /** Drops compiled entries of deleted objects (checked against the listed uids). */
  const prune = (cache: Map<string, unknown>, live: readonly KubeObject[]): void => {
    if (cache.size <= live.length) return;
    const keep = new Set(live.map((o) => o.metadata.uid ?? o.metadata.name ?? ''));
    for (const k of cache.keys()) if (!keep.has(k)) cache.delete(k);
  };
  const equivalents = equivalentsOf(deps.resources);

  async function asVersion(
    a: AdmissionAttributes,
    o: KubeObject | undefined,
    version: string,
  ): Promise<KubeObject | undefined> {
    if (o === undefined || version === a.resource.version || deps.resources === undefined) return o;
    return deps.resources.convert({ group: a.resource.group, resource: a.resource.resource }, o, version);
  }

  async function validate(a: AdmissionAttributes): Promise<void> {
    if (
      a.resource.group === GROUP &&
      (a.resource.resource === policiesGR.resource || a.resource.resource === bindingsGR.resource)
    ) {
      return;
    }
    const allBindings = await deps.lookup.list(bindingsGR, '');
    if (allBindings.length === 0) return;
    const allPolicies = await deps.lookup.list(policiesGR, '');
    engine ??= Promise.all([
      import('./compiled-policy.js'),
      import('./validator.js'),
      loadCelAdmission(),
    ]).then(([compiled, validator]) => ({
      compilePolicy: compiled.compilePolicy,
      validatePolicy: validator.validatePolicy,
    }));
    const { compilePolicy, validatePolicy } = await engine;
    const { admissionActivation, admissionRequestJson, withParams } = celAdmission();
    prune(policies, allPolicies);
    prune(bindings, allBindings);
    const bindingsOf = new Map<string, KubeObject[]>();
    for (const b of allBindings) {
      const name = str(specOf(b), 'policyName');
      const list = bindingsOf.get(name) ?? [];
      list.push(b);
      bindingsOf.set(name, list);
    }
    const denials: Denial[] = [];
    const celAuthorizer = deps.celAuthorizer?.(a.user);
    const activations = new Map<string, AdmissionActivation>();
    for (const policyObject of [...allPolicies].sort(byName)) {
      const policyBindings = bindingsOf.get(policyObject.metadata.name ?? '');
      if (policyBindings === undefined) continue;
      const policy = compiledPolicy(policyObject, compilePolicy);
      const configError = (message: string, binding?: string): void => {
        if (policy.failurePolicy === 'Ignore') return;
        const prefix = binding === undefined ? 'failed to configure policy' : 'failed to configure binding';
        denials.push({
          policy: policy.name,
          ...(binding !== undefined ? { binding } : {}),
          decision: {
            action: 'deny',
            evalError: true,
            message: `${prefix}: ${message}`,
            reason: '',
            elapsedMs: 0,
          },
        });
      };
      const matched = await matchRequest(policy.criteria, a, deps.lookup, equivalents);
      if (!matched.matches) {
        if (matched.error !== undefined) configError(matched.error.message);
        continue;
      }
      let paramResource: ServedResource | undefined;
      if (policy.paramKind !== undefined) {
        const gv = parseGroupVersion(policy.paramKind.apiVersion);
        if (gv === undefined) {
          configError(
            `failed to parse apiVersion of paramKind '${policy.paramKind.apiVersion}' with error: unexpected GroupVersion string: ${policy.paramKind.apiVersion}`,
          );
          continue;
        }
        paramResource = deps.resources?.forKind(gv.group, gv.version, policy.paramKind.kind);
        if (paramResource === undefined) {
          const gvk = `${policy.paramKind.apiVersion}, Kind=${policy.paramKind.kind}`;
          configError(`failed to find resource referenced by paramKind: '${gvk}'`);
          continue;
        }
      }
      const collector = new AuditAnnotationCollector();
      let versioned: { object: KubeObject | undefined; oldObject: KubeObject | undefined } | undefined;
      for (const bindingObject of [...policyBindings].sort(byName)) {
        const bindingName = bindingObject.metadata.name ?? '';
        const binding = compiledBinding(bindingObject);
        if (binding.criteria !== undefined) {
          const m = await matchRequest(binding.criteria, a, deps.lookup, equivalents);
          if (!m.matches) {
            if (m.error !== undefined) configError(m.error.message, bindingName);
            continue;
          }
        }
        let params: KubeObject | undefined;
        const paramRef = obj(specOf(bindingObject), 'paramRef');
        if (paramResource !== undefined && paramRef !== undefined) {
          const name = str(paramRef, 'name');
          const gr = { group: paramResource.group, resource: paramResource.resource };
          const found = await deps.lookup.get(gr, str(paramRef, 'namespace'), name);
          if (found === undefined) {
            configError(apiErrors.notFound(gr, name).message, bindingName);
            continue;
          }
          params = found;
          if (deps.resources !== undefined && found.apiVersion !== policy.paramKind?.apiVersion) {
            params = await deps.resources.convert(gr, found, paramResource.version);
          }
        }
        if (versioned === undefined) {
          try {
            versioned = {
              object: await asVersion(a, a.object, matched.resource.version),
              oldObject: await asVersion(a, a.oldObject, matched.resource.version),
            };
          } catch (err) {
            configError(
              `failed to convert object version: ${err instanceof Error ? err.message : String(err)}`,
              bindingName,
            );
            continue;
          }
        }
        // Object, old object and request are converted once per matched version and request.
        const versionKey = matched.resource.version;
        let base = activations.get(versionKey);
        if (base === undefined) {
          base = admissionActivation({
            attributes: a,
            object: versioned.object,
            oldObject: versioned.oldObject,
            request: admissionRequestJson(a, { resource: matched.resource, kind: matched.kind }),
            ...(celAuthorizer !== undefined ? { authorizer: celAuthorizer } : {}),
          });
          activations.set(versionKey, base);
        }
        const activation: AdmissionActivation = params === undefined ? base : withParams(base, params);
        const result = validatePolicy({ policy, activation });
        const actions = strs(specOf(bindingObject), 'validationActions');
        result.decisions.forEach((decision, i) => {
          if (decision.action === 'admit') {
            if (decision.evalError)
              admissionMetrics.policyCheck('allow', policy.name, bindingName, decision.elapsedMs);
            return;
          }
          for (const action of actions) {
            if (action === 'Deny') {
              denials.push({ policy: policy.name, binding: bindingName, decision });
              admissionMetrics.policyCheck('deny', policy.name, bindingName, decision.elapsedMs);
            } else if (action === 'Audit') {
              a.addAuditAnnotation?.(
                VALIDATION_FAILURE_ANNOTATION,
                JSON.stringify([
                  {
                    message: decision.message,
                    policy: str(specOf(bindingObject), 'policyName'),
                    binding: bindingName,
                    expressionIndex: i,
                    validationActions: actions,
                  },
                ]),
              );
              admissionMetrics.policyCheck('audit', policy.name, bindingName, decision.elapsedMs);
            } else if (action === 'Warn') {
              a.addWarning?.(
                `Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${bindingName}': ${decision.message}`,
              );
              admissionMetrics.policyCheck('warn', policy.name, bindingName, decision.elapsedMs);
            }
          }
        });
        for (const annotation of result.auditAnnotations) {
          if (annotation.action === 'publish') {
            collector.add(annotation.key, annotation.value.slice(0, MAX_AUDIT_ANNOTATION_VALUE_LENGTH));
          } else if (annotation.action === 'error') {
            const decision: PolicyDecision = {
              action: 'deny',
              evalError: true,
              message: annotation.error,
              reason: '',
              elapsedMs: annotation.elapsedMs,
            };
            denials.push({ policy: policy.name, binding: bindingName, decision });
            admissionMetrics.policyCheck('deny', policy.name, bindingName, annotation.elapsedMs);
          }
        }
      }
      collector.publish(policy.name, a);
    }
    const first = denials[0];
    if (first !== undefined) throw denialError(a, first);
  }

  return { name: PLUGIN_NAME, operations: allOperations, validate };
}
