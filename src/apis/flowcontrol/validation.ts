/**
 * FlowSchema and PriorityLevelConfiguration validation as upstream v1.27's
 * pkg/apis/flowcontrol/validation, on v1beta3 JSON (the storage version; v1beta2 requests are
 * converted first). metadata is validated by the generic store (DNS subdomain names), as
 * upstream's ValidateObjectMeta call comes first. Updates are validated like creates. The one
 * version-dependent message: a limited level's shares are reported under the field name of the
 * request's version (`assuredConcurrencyShares` at v1beta2).
 */
import { FieldError, FieldPath, fieldErrors, omitValue } from '../../machinery/field/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { goStringSlice, invalidRendered } from '../../machinery/validation/gosyntax.js';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../../machinery/validation/names.js';
import { isJsonObject, jsonEqual } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { bool, indexedObjs, num, obj, str, strArr } from '../core/v1/access.js';
import { exemptName, flowSchemaMaxMatchingPrecedence, wildcard } from './constants.js';
import { goDistinguisherMethod, goFlowSchemaSpec, goPriorityLevelConfigurationSpec } from './gosyntax.js';
import { mandatoryFlowSchemaSpec, mandatoryPriorityLevelConfigurationSpec } from './mandatory.js';
import { maxHashBits, requiredEntropyBits } from './shufflesharding.js';

const supportedDistinguisherMethods = ['ByNamespace', 'ByUser'];
const supportedVerbs = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'proxy',
  'update',
  'watch',
];
const supportedSubjectKinds = ['Group', 'ServiceAccount', 'User'];
const supportedPriorityLevelEnablement = ['Exempt', 'Limited'];
const supportedLimitResponseTypes = ['Queue', 'Reject'];
const maxQueues = 10 * 1000 * 1000;
const nsErrIntro = "each member of this list must be '*' or a DNS-1123 label; ";

/** A NotSupported error whose bad value is already rendered Go text. */
function notSupportedRendered(path: FieldPath, rendered: string, valid: readonly string[]): FieldError {
  const supported = fieldErrors.notSupported(path, '', valid).detail;
  return new FieldError('FieldValueNotSupported', path, omitValue, `${rendered}: ${supported}`);
}

const hasWildcard = (values: readonly string[]): boolean => values.includes(wildcard);

/**
 * Upstream compares a mandatory object's spec with apiequality.Semantic.DeepEqual on the internal
 * struct: an absent, null or empty list and a zero scalar equal their zero value, while a pointer
 * field (listed here) is set or not whatever it points to.
 */
const pointerFields = new Set([
  'distinguisherMethod',
  'user',
  'group',
  'serviceAccount',
  'limited',
  'queuing',
  'lendablePercent',
  'borrowingLimitPercent',
]);

function semantic(v: JsonValue | undefined): JsonValue | undefined {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map((x) => semantic(x) ?? null);
  if (isJsonObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) {
      if (pointerFields.has(k)) {
        if (x !== null) out[k] = semantic(x) ?? (isJsonObject(x) ? {} : x);
        continue;
      }
      const s = semantic(x);
      if (s !== undefined) out[k] = s;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  if (v === null || v === '' || v === 0 || v === false) return undefined;
  return v;
}

function semanticEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return jsonEqual(semantic(a), semantic(b));
}

// ---------------------------------------------------------------------------------------------
// FlowSchema

/** Upstream ValidateFlowSchema (after ValidateObjectMeta); ValidateFlowSchemaUpdate is the same. */
export function validateFlowSchema(fs: KubeObject): FieldError[] {
  const name = fs.metadata.name ?? '';
  const specPath = FieldPath.root('spec');
  const spec = obj(fs, 'spec') ?? {};
  const errs = validateFlowSchemaSpec(name, spec, specPath);
  const mandatory = mandatoryFlowSchemaSpec(name);
  if (mandatory !== undefined && !semanticEqual(spec, mandatory)) {
    errs.push(
      invalidRendered(specPath, goFlowSchemaSpec(spec), `spec of '${name}' must equal the fixed value`),
    );
  }
  errs.push(...validateConditions(obj(fs, 'status'), FieldPath.root('status')));
  return errs;
}

/** Upstream ValidateFlowSchemaStatusUpdate: only the status is checked. */
export function validateFlowSchemaStatusUpdate(fs: KubeObject): FieldError[] {
  return validateConditions(obj(fs, 'status'), FieldPath.root('status'));
}

function validateFlowSchemaSpec(name: string, spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const precedence = num(spec, 'matchingPrecedence') ?? 0;
  const precedencePath = path.child('matchingPrecedence');
  if (precedence <= 0) errs.push(fieldErrors.invalid(precedencePath, precedence, 'must be a positive value'));
  if (precedence > flowSchemaMaxMatchingPrecedence) {
    errs.push(
      fieldErrors.invalid(
        precedencePath,
        precedence,
        `must not be greater than ${flowSchemaMaxMatchingPrecedence}`,
      ),
    );
  }
  if (precedence === 1 && name !== exemptName) {
    errs.push(
      fieldErrors.invalid(
        precedencePath,
        precedence,
        "only the schema named 'exempt' may have matchingPrecedence 1",
      ),
    );
  }
  const method = obj(spec, 'distinguisherMethod');
  if (method !== undefined && !supportedDistinguisherMethods.includes(str(method, 'type') ?? '')) {
    errs.push(
      notSupportedRendered(
        path.child('distinguisherMethod', 'type'),
        goDistinguisherMethod(method),
        supportedDistinguisherMethods,
      ),
    );
  }
  const plName = str(obj(spec, 'priorityLevelConfiguration'), 'name') ?? '';
  const plPath = path.child('priorityLevelConfiguration', 'name');
  if (plName.length > 0) {
    for (const msg of nameIsDNSSubdomain(plName, false)) errs.push(fieldErrors.invalid(plPath, plName, msg));
  } else {
    errs.push(fieldErrors.required(plPath, 'must reference a priority level'));
  }
  for (const [i, rule] of indexedObjs(spec, 'rules')) {
    errs.push(...validatePolicyRulesWithSubjects(rule, path.child('rules').index(i)));
  }
  return errs;
}

function validatePolicyRulesWithSubjects(rule: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = indexedObjs(rule, 'subjects');
  if (subjects.length > 0) {
    for (const [i, s] of subjects) errs.push(...validateSubject(s, path.child('subjects').index(i)));
  } else {
    errs.push(fieldErrors.required(path.child('subjects'), 'subjects must contain at least one value'));
  }
  const resourceRules = indexedObjs(rule, 'resourceRules');
  const nonResourceRules = indexedObjs(rule, 'nonResourceRules');
  if (resourceRules.length === 0 && nonResourceRules.length === 0) {
    errs.push(
      fieldErrors.required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'),
    );
  }
  for (const [i, r] of resourceRules) {
    errs.push(...validateResourcePolicyRule(r, path.child('resourceRules').index(i)));
  }
  for (const [i, r] of nonResourceRules) {
    errs.push(...validateNonResourcePolicyRule(r, path.child('nonResourceRules').index(i)));
  }
  return errs;
}

const forbiddenUnlessKind = {
  user: "user is forbidden when subject kind is not 'User'",
  group: "group is forbidden when subject kind is not 'Group'",
  serviceAccount: "serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
} as const;

function isSet(o: JsonObject, key: string): boolean {
  return o[key] !== undefined && o[key] !== null;
}

function validateSubject(subject: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const kind = str(subject, 'kind') ?? '';
  /** The kind's own member, then the others that must be unset, in upstream's order. */
  let others: readonly (keyof typeof forbiddenUnlessKind)[];
  switch (kind) {
    case 'ServiceAccount':
      errs.push(
        ...validateServiceAccountSubject(obj(subject, 'serviceAccount'), path.child('serviceAccount')),
      );
      others = ['user', 'group'];
      break;
    case 'User':
      errs.push(...validateNamedSubject(obj(subject, 'user'), path.child('user'), 'user', 'User'));
      others = ['serviceAccount', 'group'];
      break;
    case 'Group':
      errs.push(...validateNamedSubject(obj(subject, 'group'), path.child('group'), 'group', 'Group'));
      others = ['serviceAccount', 'user'];
      break;
    default:
      return [fieldErrors.notSupported(path.child('kind'), kind, supportedSubjectKinds)];
  }
  for (const k of others) {
    if (isSet(subject, k)) errs.push(fieldErrors.forbidden(path.child(k), forbiddenUnlessKind[k]));
  }
  return errs;
}

function validateServiceAccountSubject(sa: JsonObject | undefined, path: FieldPath): FieldError[] {
  if (sa === undefined) {
    return [fieldErrors.required(path, "serviceAccount is required when subject kind is 'ServiceAccount'")];
  }
  const errs: FieldError[] = [];
  const name = str(sa, 'name') ?? '';
  if (name.length === 0) errs.push(fieldErrors.required(path.child('name'), ''));
  else if (name !== wildcard) {
    for (const msg of nameIsDNSSubdomain(name, false))
      errs.push(fieldErrors.invalid(path.child('name'), name, msg));
  }
  const namespace = str(sa, 'namespace') ?? '';
  if (namespace.length > 0) {
    for (const msg of nameIsDNSLabel(namespace, false)) {
      errs.push(fieldErrors.invalid(path.child('namespace'), namespace, msg));
    }
  } else {
    errs.push(fieldErrors.required(path.child('namespace'), 'must specify namespace for service account'));
  }
  return errs;
}

/** ValidateUserSubject / ValidateGroupSubject. */
function validateNamedSubject(
  s: JsonObject | undefined,
  path: FieldPath,
  member: string,
  kind: string,
): FieldError[] {
  if (s === undefined)
    return [fieldErrors.required(path, `${member} is required when subject kind is '${kind}'`)];
  if ((str(s, 'name') ?? '').length === 0) return [fieldErrors.required(path.child('name'), '')];
  return [];
}

/** The verbs check both kinds of rule share. */
function validateVerbs(rule: JsonObject, path: FieldPath): FieldError[] {
  const verbs = strArr(rule, 'verbs');
  if (verbs.length === 0) return [fieldErrors.required(path, 'verbs must contain at least one value')];
  if (hasWildcard(verbs)) {
    return verbs.length > 1
      ? [invalidRendered(path, goStringSlice(verbs), "if '*' is present, must not specify other verbs")]
      : [];
  }
  if (!verbs.every((v) => supportedVerbs.includes(v))) {
    return [notSupportedRendered(path, goStringSlice(verbs), supportedVerbs)];
  }
  return [];
}

function validateNonResourcePolicyRule(rule: JsonObject, path: FieldPath): FieldError[] {
  const errs = validateVerbs(rule, path.child('verbs'));
  const urls = strArr(rule, 'nonResourceURLs');
  const urlsPath = path.child('nonResourceURLs');
  if (urls.length === 0) {
    errs.push(fieldErrors.required(urlsPath, 'nonResourceURLs must contain at least one value'));
  } else if (hasWildcard(urls)) {
    if (urls.length > 1) {
      errs.push(
        invalidRendered(
          urlsPath,
          goStringSlice(urls),
          "if '*' is present, must not specify other non-resource URLs",
        ),
      );
    }
  } else {
    urls.forEach((url, i) => {
      const err = validateNonResourceURLPath(url, urlsPath.index(i));
      if (err !== undefined) errs.push(err);
    });
  }
  return errs;
}

function validateResourcePolicyRule(rule: JsonObject, path: FieldPath): FieldError[] {
  const errs = validateVerbs(rule, path.child('verbs'));
  const groups = strArr(rule, 'apiGroups');
  if (groups.length === 0) {
    errs.push(
      fieldErrors.required(path.child('apiGroups'), 'resource rules must supply at least one api group'),
    );
  } else if (groups.length > 1 && hasWildcard(groups)) {
    errs.push(
      invalidRendered(
        path.child('apiGroups'),
        goStringSlice(groups),
        "if '*' is present, must not specify other api groups",
      ),
    );
  }
  const resources = strArr(rule, 'resources');
  if (resources.length === 0) {
    errs.push(
      fieldErrors.required(path.child('resources'), 'resource rules must supply at least one resource'),
    );
  } else if (resources.length > 1 && hasWildcard(resources)) {
    errs.push(
      invalidRendered(
        path.child('resources'),
        goStringSlice(resources),
        "if '*' is present, must not specify other resources",
      ),
    );
  }
  const namespaces = strArr(rule, 'namespaces');
  const nsPath = path.child('namespaces');
  if (namespaces.length === 0 && bool(rule, 'clusterScope') !== true) {
    errs.push(
      fieldErrors.required(
        nsPath,
        'resource rules that are not cluster scoped must supply at least one namespace',
      ),
    );
  } else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1) {
      errs.push(
        invalidRendered(
          nsPath,
          goStringSlice(namespaces),
          "if '*' is present, must not specify other namespaces",
        ),
      );
    }
  } else {
    namespaces.forEach((ns, i) => {
      for (const msg of nameIsDNSLabel(ns, false))
        errs.push(fieldErrors.invalid(nsPath.index(i), ns, nsErrIntro + msg));
    });
  }
  return errs;
}

/**
 * Upstream ValidateNonResourceURLPath: "/" or a slash-led path without blanks or double slashes,
 * with at most one `*`, as the last segment (`/apis/*`).
 */
export function validateNonResourceURLPath(path: string, fieldPath: FieldPath): FieldError | undefined {
  if (path.length === 0) return fieldErrors.invalid(fieldPath, path, 'must not be empty');
  if (path === '/') return undefined;
  if (!path.startsWith('/')) return fieldErrors.invalid(fieldPath, path, 'must start with slash');
  if (path.includes(' ')) return fieldErrors.invalid(fieldPath, path, 'must not contain white-space');
  if (path.includes('//')) return fieldErrors.invalid(fieldPath, path, 'must not contain double slash');
  const wildcards = path.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && !path.endsWith('/*'))) {
    return fieldErrors.invalid(fieldPath, path, 'wildcard can only do suffix matching');
  }
  return undefined;
}

/** ValidateFlowSchemaStatus / ValidatePriorityLevelConfigurationStatus: unique, non-empty types. */
function validateConditions(status: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, c] of indexedObjs(status, 'conditions')) {
    const type = str(c, 'type') ?? '';
    const typePath = path.child('conditions').index(i).child('type');
    if (seen.has(type)) errs.push(fieldErrors.duplicate(typePath, type));
    seen.add(type);
    if (type.length === 0) errs.push(fieldErrors.required(typePath, 'must not be empty'));
  }
  return errs;
}

// ---------------------------------------------------------------------------------------------
// PriorityLevelConfiguration

/**
 * The JSON name of a limited level's shares at a request version: upstream's
 * getVersionedFieldNameForConcurrencyShares (v1beta2 and older say `assuredConcurrencyShares`).
 */
export function concurrencySharesField(version: string | undefined): string {
  return version === 'v1beta2' || version === 'v1beta1' || version === 'v1alpha1'
    ? 'assuredConcurrencyShares'
    : 'nominalConcurrencyShares';
}

/**
 * Upstream ValidatePriorityLevelConfiguration (after ValidateObjectMeta), on the v1beta3 object;
 * `requestVersion` names the version the request was made at. The update is validated the same.
 */
export function validatePriorityLevelConfiguration(plc: KubeObject, requestVersion?: string): FieldError[] {
  const name = plc.metadata.name ?? '';
  const specPath = FieldPath.root('spec');
  const spec = obj(plc, 'spec') ?? {};
  const errs = validatePriorityLevelConfigurationSpec(spec, name, specPath, requestVersion);
  const mandatory = mandatoryPriorityLevelConfigurationSpec(name);
  if (mandatory !== undefined && !semanticEqual(spec, mandatory)) {
    errs.push(
      invalidRendered(
        specPath,
        goPriorityLevelConfigurationSpec(spec),
        `spec of '${name}' must equal the fixed value`,
      ),
    );
  }
  errs.push(...validateConditions(obj(plc, 'status'), FieldPath.root('status')));
  return errs;
}

/** Upstream ValidatePriorityLevelConfigurationStatusUpdate: only the status is checked. */
export function validatePriorityLevelConfigurationStatusUpdate(plc: KubeObject): FieldError[] {
  return validateConditions(obj(plc, 'status'), FieldPath.root('status'));
}

function validatePriorityLevelConfigurationSpec(
  spec: JsonObject,
  name: string,
  path: FieldPath,
  requestVersion: string | undefined,
): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(spec, 'type') ?? '';
  if ((name === exemptName) !== (type === 'Exempt')) {
    errs.push(
      fieldErrors.invalid(path.child('type'), type, "type must be 'Exempt' if and only if name is 'exempt'"),
    );
  }
  const limited = obj(spec, 'limited');
  switch (type) {
    case 'Exempt':
      if (isSet(spec, 'limited')) {
        errs.push(fieldErrors.forbidden(path.child('limited'), 'must be nil if the type is not Limited'));
      }
      break;
    case 'Limited':
      if (limited === undefined) {
        errs.push(fieldErrors.required(path.child('limited'), 'must not be empty when type is Limited'));
      } else {
        errs.push(...validateLimited(limited, path.child('limited'), requestVersion));
      }
      break;
    default:
      errs.push(fieldErrors.notSupported(path.child('type'), type, supportedPriorityLevelEnablement));
  }
  return errs;
}

function validateLimited(
  limited: JsonObject,
  path: FieldPath,
  requestVersion: string | undefined,
): FieldError[] {
  const errs: FieldError[] = [];
  const shares = num(limited, 'nominalConcurrencyShares') ?? 0;
  if (shares <= 0) {
    errs.push(
      fieldErrors.invalid(path.child(concurrencySharesField(requestVersion)), shares, 'must be positive'),
    );
  }
  errs.push(...validateLimitResponse(obj(limited, 'limitResponse') ?? {}, path.child('limitResponse')));
  const lendable = num(limited, 'lendablePercent');
  if (lendable !== undefined && !(lendable >= 0 && lendable <= 100)) {
    errs.push(
      fieldErrors.invalid(path.child('lendablePercent'), lendable, 'must be between 0 and 100, inclusive'),
    );
  }
  const borrowing = num(limited, 'borrowingLimitPercent');
  if (borrowing !== undefined && borrowing < 0) {
    errs.push(
      fieldErrors.invalid(
        path.child('borrowingLimitPercent'),
        borrowing,
        'if specified, must be a non-negative integer',
      ),
    );
  }
  return errs;
}

function validateLimitResponse(lr: JsonObject, path: FieldPath): FieldError[] {
  const type = str(lr, 'type') ?? '';
  const queuing = obj(lr, 'queuing');
  switch (type) {
    case 'Reject':
      return isSet(lr, 'queuing')
        ? [
            fieldErrors.forbidden(
              path.child('queuing'),
              'must be nil if limited.limitResponse.type is not Limited',
            ),
          ]
        : [];
    case 'Queue':
      return queuing === undefined
        ? [
            fieldErrors.required(
              path.child('queuing'),
              'must not be empty if limited.limitResponse.type is Limited',
            ),
          ]
        : validateQueuing(queuing, path.child('queuing'));
    default:
      return [fieldErrors.notSupported(path.child('type'), type, supportedLimitResponseTypes)];
  }
}

/** Upstream ValidatePriorityLevelQueuingConfiguration, with the shuffle-sharding entropy check. */
function validateQueuing(q: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const queueLengthLimit = num(q, 'queueLengthLimit') ?? 0;
  if (queueLengthLimit <= 0) {
    errs.push(fieldErrors.invalid(path.child('queueLengthLimit'), queueLengthLimit, 'must be positive'));
  }
  const queues = num(q, 'queues') ?? 0;
  if (queues <= 0) errs.push(fieldErrors.invalid(path.child('queues'), queues, 'must be positive'));
  else if (queues > maxQueues) {
    errs.push(fieldErrors.invalid(path.child('queues'), queues, `must not be greater than ${maxQueues}`));
  }
  const handSize = num(q, 'handSize') ?? 0;
  const handPath = path.child('handSize');
  if (handSize <= 0) errs.push(fieldErrors.invalid(handPath, handSize, 'must be positive'));
  else if (handSize > queues) {
    errs.push(fieldErrors.invalid(handPath, handSize, `should not be greater than queues (${queues})`));
  } else if (requiredEntropyBits(queues, handSize) > maxHashBits) {
    errs.push(
      fieldErrors.invalid(
        handPath,
        handSize,
        `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${maxHashBits}`,
      ),
    );
  }
  return errs;
}
