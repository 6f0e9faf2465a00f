/** ResourceQuota validation (upstream ValidateResourceQuota*, release-1.27), on core/v1 JSON. */
import {
  FieldError,
  FieldPath,
  fieldErrors,
  goQuote,
  omitValue,
} from '../../../../machinery/field/errors.js';
import { isJsonObject } from '../../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';
import { obj, objArr, str, strArr } from '../access.js';
import {
  isStandardQuotaResourceName,
  quantities,
  validateQuotaResourceName,
  validateResourceQuantityValue,
} from './resource-names.js';

const standardScopes = new Set([
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'CrossNamespacePodAffinity',
]);

const podCountResources = new Set(['pods']);
const podComputeResources = new Set([
  'cpu',
  'memory',
  'limits.cpu',
  'limits.memory',
  'requests.cpu',
  'requests.memory',
]);

function scopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return podCountResources.has(resource) || podComputeResources.has(resource);
    case 'BestEffort':
      return podCountResources.has(resource);
    default:
      return true;
  }
}

const conflictingPairs: readonly (readonly [string, string])[] = [
  ['BestEffort', 'NotBestEffort'],
  ['NotTerminating', 'Terminating'],
];

function invalidRendered(path: FieldPath, rendered: string, detail: string): FieldError {
  return new FieldError('FieldValueInvalid', path, omitValue, `${rendered}: ${detail}`);
}

/** `[]core.ResourceQuotaScope{"A", "B"}` or `[]core.ResourceQuotaScope(nil)`. */
function goScopes(v: JsonValue | undefined): string {
  if (!Array.isArray(v)) return '[]core.ResourceQuotaScope(nil)';
  return `[]core.ResourceQuotaScope{${v.map((x) => goQuote(typeof x === 'string' ? x : '')).join(', ')}}`;
}

function goStrings(v: JsonValue | undefined): string {
  if (!Array.isArray(v)) return '[]string(nil)';
  return `[]string{${v.map((x) => goQuote(typeof x === 'string' ? x : '')).join(', ')}}`;
}

/** `core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{...}}`. */
function goScopeSelector(sel: JsonObject): string {
  const exprs = sel['matchExpressions'];
  const inner = Array.isArray(exprs)
    ? `[]core.ScopedResourceSelectorRequirement{${exprs
        .filter(isJsonObject)
        .map(
          (e) =>
            `core.ScopedResourceSelectorRequirement{ScopeName:${goQuote(str(e, 'scopeName') ?? '')}, Operator:${goQuote(str(e, 'operator') ?? '')}, Values:${goStrings(e['values'])}}`,
        )
        .join(', ')}}`
    : '[]core.ScopedResourceSelectorRequirement(nil)';
  return `core.ScopeSelector{MatchExpressions:${inner}}`;
}

function validateResourceList(list: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const parsed = new Map(quantities(list, path, errs));
  for (const name of Object.keys(list ?? {}).sort()) {
    const p = path.key(name);
    errs.push(...validateQuotaResourceName(name, p));
    const q = parsed.get(name);
    if (q !== undefined) errs.push(...validateResourceQuantityValue(name, q, p));
  }
  return errs;
}

function hardNames(spec: JsonObject): string[] {
  return Object.keys(obj(spec, 'hard') ?? {}).sort();
}

function validateScopes(spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const scopes = strArr(spec, 'scopes');
  if (scopes.length === 0) return errs;
  const p = path.child('scopes');
  const rendered = goScopes(spec['scopes']);
  const hard = hardNames(spec);
  for (const scope of scopes) {
    if (!standardScopes.has(scope)) errs.push(invalidRendered(p, rendered, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k)) {
        errs.push(invalidRendered(p, rendered, 'unsupported scope applied to resource'));
      }
    }
  }
  const set = new Set(scopes);
  for (const [a, b] of conflictingPairs) {
    if (set.has(a) && set.has(b)) errs.push(invalidRendered(p, rendered, 'conflicting scopes'));
  }
  return errs;
}

const existsOnlyScopes = new Set([
  'BestEffort',
  'NotBestEffort',
  'Terminating',
  'NotTerminating',
  'CrossNamespacePodAffinity',
]);

function validateScopeSelector(spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const sel = obj(spec, 'scopeSelector');
  if (sel === undefined) return errs;
  const p = path.child('scopeSelector', 'matchExpressions');
  const hard = hardNames(spec);
  const set = new Set<string>();
  for (const req of objArr(sel, 'matchExpressions')) {
    const scope = str(req, 'scopeName') ?? '';
    const op = str(req, 'operator') ?? '';
    if (!standardScopes.has(scope))
      errs.push(fieldErrors.invalid(p.child('scopeName'), scope, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k)) {
        errs.push(invalidRendered(p, goScopeSelector(sel), 'unsupported scope applied to resource'));
      }
    }
    if (existsOnlyScopes.has(scope) && op !== 'Exists') {
      errs.push(
        fieldErrors.invalid(
          p.child('operator'),
          op,
          "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    const values = req['values'];
    const count = Array.isArray(values) ? values.length : 0;
    switch (op) {
      case 'In':
      case 'NotIn':
        if (count === 0) {
          errs.push(
            fieldErrors.required(
              p.child('values'),
              "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            ),
          );
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (count !== 0) {
          errs.push(
            invalidRendered(
              p.child('values'),
              goStrings(values),
              "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            ),
          );
        }
        break;
      default:
        errs.push(fieldErrors.invalid(p.child('operator'), op, 'not a valid selector operator'));
    }
    set.add(scope);
  }
  for (const [a, b] of conflictingPairs) {
    if (set.has(a) && set.has(b))
      errs.push(invalidRendered(p, goScopes(spec['scopes']), 'conflicting scopes'));
  }
  return errs;
}

/** Upstream ValidateResourceQuotaSpec. */
export function validateResourceQuotaSpec(spec: JsonObject, path: FieldPath): FieldError[] {
  return [
    ...validateResourceList(obj(spec, 'hard'), path.child('hard')),
    ...validateScopes(spec, path),
    ...validateScopeSelector(spec, path),
  ];
}

/** Upstream ValidateResourceQuotaStatus: hard and used lists. */
export function validateResourceQuotaStatus(status: JsonObject, path: FieldPath): FieldError[] {
  return [
    ...validateResourceList(obj(status, 'hard'), path.child('hard')),
    ...validateResourceList(obj(status, 'used'), path.child('used')),
  ];
}

const specPath = FieldPath.root('spec');
const statusPath = FieldPath.root('status');

/** Upstream ValidateResourceQuota without ObjectMeta (checked by the generic store). */
export function validateResourceQuota(rq: JsonObject): FieldError[] {
  return [
    ...validateResourceQuotaSpec(obj(rq, 'spec') ?? {}, specPath),
    ...validateResourceQuotaStatus(obj(rq, 'status') ?? {}, statusPath),
  ];
}

/** Upstream ValidateResourceQuotaUpdate: the spec again, and scopes may not change (as a set). */
export function validateResourceQuotaUpdate(rq: JsonObject, old: JsonObject): FieldError[] {
  const spec = obj(rq, 'spec') ?? {};
  const errs = validateResourceQuotaSpec(spec, specPath);
  const a = new Set(strArr(spec, 'scopes'));
  const b = new Set(strArr(obj(old, 'spec'), 'scopes'));
  if (a.size !== b.size || [...a].some((x) => !b.has(x))) {
    errs.push(invalidRendered(specPath.child('scopes'), goScopes(spec['scopes']), 'field is immutable'));
  }
  return errs;
}

/** Upstream ValidateResourceQuotaStatusUpdate (resourceVersion is always set by then). */
export function validateResourceQuotaStatusUpdate(rq: JsonObject): FieldError[] {
  return validateResourceQuotaStatus(obj(rq, 'status') ?? {}, statusPath);
}
