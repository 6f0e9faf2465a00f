/**
 * The audit policy (audit.k8s.io/v1 Policy, AM-17): which requests are audited at which level and
 * which stages are left out. Loading, validation and rule matching as k8s.io/apiserver v0.27
 * (pkg/audit/policy reader.go and checker.go, pkg/apis/audit/validation): the first rule that
 * matches a request decides; no match is level None.
 */
import { parse as parseYaml } from 'yaml';
import { FieldPath, fieldErrors } from '../../machinery/field/errors.js';
import type { FieldError } from '../../machinery/field/errors.js';
import { nameIsDNSSubdomain } from '../../machinery/validation/names.js';

export const auditLevels = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type AuditLevel = (typeof auditLevels)[number];

export const auditStages = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type AuditStage = (typeof auditStages)[number];

export interface GroupResources {
  readonly group: string;
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

export interface PolicyRule {
  readonly level: AuditLevel;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  readonly namespaces: readonly string[];
  readonly nonResourceURLs: readonly string[];
  /** The rule's own stages united with the policy's (upstream NewPolicyRuleEvaluator). */
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields?: boolean;
}

export interface AuditPolicy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

/** What a rule is matched against (upstream authorizer.Attributes). */
export interface AuditAttributes {
  /** Absent for a request that failed authentication. */
  readonly user?: { readonly name: string; readonly groups: readonly string[] };
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

/** What the policy says about one request (upstream RequestAuditConfig). */
export interface RequestAuditConfig {
  readonly level: AuditLevel;
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

export class AuditPolicyError extends Error {
  override readonly name = 'AuditPolicyError';
}

/** How levels compare (upstream Level.Less / GreaterOrEqual). */
export function levelAtLeast(level: AuditLevel, min: AuditLevel): boolean {
  return auditLevels.indexOf(level) >= auditLevels.indexOf(min);
}

// ---- decoding ------------------------------------------------------------------------------

type Raw = Record<string, unknown>;

const policyFields = new Set(['apiVersion', 'kind', 'metadata', 'rules', 'omitStages', 'omitManagedFields']);
const ruleFields = new Set([
  'level',
  'users',
  'userGroups',
  'verbs',
  'resources',
  'namespaces',
  'nonResourceURLs',
  'omitStages',
  'omitManagedFields',
]);
const groupResourceFields = new Set(['group', 'resources', 'resourceNames']);

function isRaw(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Decoding state: unknown fields are collected (strict decoding fails, lenient goes on). */
class Decoder {
  readonly unknown: string[] = [];

  object(v: unknown, path: string, known: ReadonlySet<string>): Raw {
    if (v === undefined || v === null) return {};
    if (!isRaw(v)) {
      throw new AuditPolicyError(
        `failed decoding: json: cannot unmarshal ${goKind(v)} into Go value of type ${path === '' ? 'audit.Policy' : 'object'}`,
      );
    }
    for (const k of Object.keys(v)) {
      if (!known.has(k)) this.unknown.push(`unknown field "${path === '' ? k : `${path}.${k}`}"`);
    }
    return v;
  }

  strings(v: unknown, path: string): string[] {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      throw new AuditPolicyError(
        `failed decoding: json: cannot unmarshal ${goKind(v)} into Go struct field ${path} of type []string`,
      );
    }
    return v.map((s) => {
      if (typeof s !== 'string') {
        throw new AuditPolicyError(
          `failed decoding: json: cannot unmarshal ${goKind(s)} into Go struct field ${path} of type string`,
        );
      }
      return s;
    });
  }

  string(v: unknown, path: string): string {
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') {
      throw new AuditPolicyError(
        `failed decoding: json: cannot unmarshal ${goKind(v)} into Go struct field ${path} of type string`,
      );
    }
    return v;
  }

  bool(v: unknown, path: string): boolean | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') {
      throw new AuditPolicyError(
        `failed decoding: json: cannot unmarshal ${goKind(v)} into Go struct field ${path} of type bool`,
      );
    }
    return v;
  }
}

function goKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object' && v !== null) return 'object';
  return typeof v;
}

interface DecodedRule {
  readonly level: string;
  readonly users: string[];
  readonly userGroups: string[];
  readonly verbs: string[];
  readonly resources: GroupResources[];
  readonly namespaces: string[];
  readonly nonResourceURLs: string[];
  readonly omitStages: string[];
  readonly omitManagedFields?: boolean;
}

/**
 * Parses a policy file's bytes (YAML or JSON) and validates it as upstream's
 * LoadPolicyFromBytes: apiVersion audit.k8s.io/v1 and kind Policy, strict decoding first and, if
 * only unknown fields stand in the way, lenient decoding with a warning; validation errors and a
 * policy without rules are refused.
 */
export function parseAuditPolicy(text: string, warn: (message: string) => void = () => {}): AuditPolicy {
  let doc: unknown;
  try {
    doc = parseYaml(text, { uniqueKeys: true });
  } catch (err) {
    throw new AuditPolicyError(`failed decoding: ${err instanceof Error ? err.message : String(err)}`);
  }
  const d = new Decoder();
  const top = d.object(doc, '', policyFields);
  const apiVersion = d.string(top['apiVersion'], 'apiVersion');
  const kind = d.string(top['kind'], 'kind');
  if (kind === '')
    throw new AuditPolicyError(`failed decoding: Object 'Kind' is missing in '${JSON.stringify(doc)}'`);
  if (apiVersion !== 'audit.k8s.io/v1' || kind !== 'Policy') {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
    throw new AuditPolicyError(
      apiVersion === 'audit.k8s.io/v1'
        ? `failed decoding: no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/audit/scheme.go:30"`
        : `unknown group version field ${group ?? ''}/${version ?? ''}, Kind=${kind} in policy`,
    );
  }
  const rawRules = top['rules'];
  if (rawRules !== undefined && rawRules !== null && !Array.isArray(rawRules)) {
    throw new AuditPolicyError(
      `failed decoding: json: cannot unmarshal ${goKind(rawRules)} into Go struct field Policy.rules of type []v1.PolicyRule`,
    );
  }
  const rules: DecodedRule[] = (rawRules ?? []).map((r: unknown, i: number) => {
    const path = `rules[${i}]`;
    const o = d.object(r, path, ruleFields);
    const rawResources = o['resources'];
    const resources: GroupResources[] = (Array.isArray(rawResources) ? rawResources : []).map(
      (g: unknown, j: number) => {
        const gp = `${path}.resources[${j}]`;
        const go = d.object(g, gp, groupResourceFields);
        return {
          group: d.string(go['group'], 'GroupResources.group'),
          resources: d.strings(go['resources'], 'GroupResources.resources'),
          resourceNames: d.strings(go['resourceNames'], 'GroupResources.resourceNames'),
        };
      },
    );
    const omitManagedFields = d.bool(o['omitManagedFields'], 'PolicyRule.omitManagedFields');
    return {
      level: d.string(o['level'], 'PolicyRule.level'),
      users: d.strings(o['users'], 'PolicyRule.users'),
      userGroups: d.strings(o['userGroups'], 'PolicyRule.userGroups'),
      verbs: d.strings(o['verbs'], 'PolicyRule.verbs'),
      resources,
      namespaces: d.strings(o['namespaces'], 'PolicyRule.namespaces'),
      nonResourceURLs: d.strings(o['nonResourceURLs'], 'PolicyRule.nonResourceURLs'),
      omitStages: d.strings(o['omitStages'], 'PolicyRule.omitStages'),
      ...(omitManagedFields !== undefined ? { omitManagedFields } : {}),
    };
  });
  const omitStages = d.strings(top['omitStages'], 'Policy.omitStages');
  const omitManagedFields = d.bool(top['omitManagedFields'], 'Policy.omitManagedFields') ?? false;
  if (d.unknown.length > 0) {
    warn(
      `Audit policy contains errors, falling back to lenient decoding: strict decoding error: ${d.unknown.join(', ')}`,
    );
  }
  const errors = validatePolicy(rules, omitStages);
  if (errors.length > 0) throw new AuditPolicyError(aggregate(errors.map((e) => e.toString())));
  if (rules.length === 0) throw new AuditPolicyError('loaded illegal policy with 0 rules');
  const policyStages = omitStages as AuditStage[];
  return {
    omitStages: policyStages,
    omitManagedFields,
    rules: rules.map((r) => ({
      level: r.level as AuditLevel,
      users: r.users,
      userGroups: r.userGroups,
      verbs: r.verbs,
      resources: r.resources,
      namespaces: r.namespaces,
      nonResourceURLs: r.nonResourceURLs,
      omitStages: [...new Set([...policyStages, ...(r.omitStages as AuditStage[])])],
      ...(r.omitManagedFields !== undefined ? { omitManagedFields: r.omitManagedFields } : {}),
    })),
  };
}

/** utilerrors.NewAggregate(...).Error(): one message as is, several as `[a, b]` (duplicates once). */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

// ---- validation (pkg/apis/audit/validation) --------------------------------------------------

function validatePolicy(rules: readonly DecodedRule[], omitStages: readonly string[]): FieldError[] {
  const errs = validateOmitStages(omitStages, FieldPath.root('omitStages'));
  const rulePath = FieldPath.root('rules');
  rules.forEach((rule, i) => errs.push(...validateRule(rule, rulePath.index(i))));
  return errs;
}

function validateRule(rule: DecodedRule, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (rule.level === '') errs.push(fieldErrors.required(path.child('level')));
  else if (!(auditLevels as readonly string[]).includes(rule.level))
    errs.push(fieldErrors.notSupported(path.child('level'), rule.level, auditLevels));
  const urls = path.child('nonResourceURLs');
  rule.nonResourceURLs.forEach((url, i) => {
    if (url === '*') return;
    if (!url.startsWith('/'))
      errs.push(
        fieldErrors.invalid(urls.index(i), url, "non-resource URL rules must begin with a '/' character"),
      );
    if (url !== '' && url.slice(0, -1).includes('*'))
      errs.push(
        fieldErrors.invalid(
          urls.index(i),
          url,
          "non-resource URL wildcards '*' must be the final character of the rule",
        ),
      );
  });
  // Upstream's paths here carry no index (fldPath.Child("group") on the list's path).
  const resources = path.child('resources');
  for (const g of rule.resources) {
    if (g.group !== '') {
      const msgs = nameIsDNSSubdomain(g.group, false);
      if (msgs.length > 0) errs.push(fieldErrors.invalid(resources.child('group'), g.group, msgs.join(',')));
    }
    if (g.resourceNames.length > 0 && g.resources.length === 0)
      errs.push(
        fieldErrors.invalid(
          resources.child('resourceNames'),
          g.resourceNames,
          'using resourceNames requires at least one resource',
        ),
      );
  }
  errs.push(...validateOmitStages(rule.omitStages, path.child('omitStages')));
  if (rule.nonResourceURLs.length > 0 && (rule.resources.length > 0 || rule.namespaces.length > 0))
    errs.push(
      fieldErrors.invalid(
        urls,
        rule.nonResourceURLs,
        'rules cannot apply to both regular resources and non-resource URLs',
      ),
    );
  return errs;
}

function validateOmitStages(stages: readonly string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  stages.forEach((s, i) => {
    if (!(auditStages as readonly string[]).includes(s))
      errs.push(fieldErrors.invalid(path.index(i), s, `allowed stages are ${auditStages.join(',')}`));
  });
  return errs;
}

// ---- evaluation (pkg/audit/policy/checker.go) ------------------------------------------------

/** The policy's decision for one request: the first matching rule, else level None. */
export function evaluatePolicy(policy: AuditPolicy, attrs: AuditAttributes): RequestAuditConfig {
  for (const rule of policy.rules) {
    if (ruleMatches(rule, attrs)) {
      return {
        level: rule.level,
        omitStages: rule.omitStages,
        omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields,
      };
    }
  }
  return { level: 'None', omitStages: policy.omitStages, omitManagedFields: policy.omitManagedFields };
}

function ruleMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if (r.users.length > 0 && (a.user === undefined || !r.users.includes(a.user.name))) return false;
  if (r.userGroups.length > 0) {
    if (a.user === undefined || !a.user.groups.some((g) => r.userGroups.includes(g))) return false;
  }
  if (r.verbs.length > 0 && !r.verbs.includes(a.verb)) return false;
  if (r.namespaces.length > 0 || r.resources.length > 0) return ruleMatchesResource(r, a);
  if (r.nonResourceURLs.length > 0) return ruleMatchesNonResource(r, a);
  return true;
}

function ruleMatchesNonResource(r: PolicyRule, a: AuditAttributes): boolean {
  if (a.isResourceRequest) return false;
  return r.nonResourceURLs.some((spec) => pathMatches(a.path, spec));
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  // strings.TrimRight(spec, "*"): every trailing star goes.
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function ruleMatchesResource(r: PolicyRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  // Cluster-scoped requests have the namespace "".
  if (r.namespaces.length > 0 && !r.namespaces.includes(a.namespace)) return false;
  if (r.resources.length === 0) return true;
  const combined = a.subresource !== '' ? `${a.resource}/${a.subresource}` : a.resource;
  for (const gr of r.resources) {
    if (gr.group !== a.apiGroup) continue;
    if (gr.resources.length === 0) return true;
    for (const res of gr.resources) {
      if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(a.name)) continue;
      if (res === combined || res === '*') return true;
      if (a.subresource !== '' && res.startsWith('*/') && a.subresource === res.slice(2)) return true;
      if (res.endsWith('/*') && a.resource === res.slice(0, -2)) return true;
    }
  }
  return false;
}
