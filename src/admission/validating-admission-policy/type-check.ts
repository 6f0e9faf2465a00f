/**
 * Type checking of a policy's validations against the kinds it matches (AM-07; apiserver v0.27
 * validatingadmissionpolicy typechecking.go): up to 10 kinds named by the match constraints'
 * resource rules (wildcards and subresources skipped), each expression compiled with `object` and
 * `oldObject` typed by the kind's schema and `params` by the paramKind's (dyn when unknown). The
 * warnings (one per expression with issues, naming each kind) go to status.typeChecking; they
 * never change what the policy decides. As upstream v1.27, `authorizer` is not declared here.
 */
import { admissionVariables } from '../../cel/admission/index.js';
import { compileCel } from '../../cel/compile.js';
import { formatIssues } from '../../cel/issues.js';
import { assignTypeNames, type DeclType } from '../../cel/schema/decl-type.js';
import { schemaDeclType } from '../../cel/schema/schema-decl-type.js';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import type { GroupVersionKind } from '../../machinery/admission-attributes.js';

const MAX_TYPES_TO_CHECK = 10;

export interface TypeCheckSchemas {
  /** The kinds a group/version/resource serves (RESTMapper.KindsFor); [] when unknown. */
  kindsFor(group: string, version: string, resource: string): readonly GroupVersionKind[];
  /** The kind's OpenAPI v3 schema with references inlined; undefined when unknown. */
  schemaFor(gvk: GroupVersionKind): JsonObject | undefined;
}

export interface ExpressionWarning {
  readonly fieldRef: string;
  readonly warning: string;
}

function objs(o: JsonObject | undefined, key: string): readonly JsonObject[] {
  const v = o?.[key];
  return Array.isArray(v)
    ? v.filter((x): x is JsonObject => typeof x === 'object' && x !== null && !Array.isArray(x))
    : [];
}
function strs(o: JsonObject, key: string): readonly string[] {
  const v = o[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
function obj(o: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = o?.[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
}

/** gvk.String(): `apps/v1, Kind=Deployment`, `/v1, Kind=Pod` for the core group. */
export function gvkString(g: GroupVersionKind): string {
  return `${g.group}/${g.version}, Kind=${g.kind}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** typesToCheck: the kinds named by the resource rules, at most 10, sorted by group, version, kind. */
function typesToCheck(spec: JsonObject | undefined, schemas: TypeCheckSchemas): GroupVersionKind[] {
  const found = new Map<string, GroupVersionKind>();
  const sorted = (): GroupVersionKind[] =>
    [...found.values()].sort(
      (a, b) => compare(a.group, b.group) || compare(a.version, b.version) || compare(a.kind, b.kind),
    );
  for (const rule of objs(obj(spec, 'matchConstraints'), 'resourceRules')) {
    const groups = strs(rule, 'apiGroups');
    const versions = strs(rule, 'apiVersions');
    if (groups.some((g) => g.includes('*')) || versions.some((v) => v.includes('*'))) continue;
    const resources = strs(rule, 'resources').filter((r) => !/[*/]/.test(r));
    let count = 0;
    for (const group of [...groups].sort(compare)) {
      for (const version of [...versions].sort(compare)) {
        for (const resource of [...resources].sort(compare)) {
          for (const gvk of schemas.kindsFor(group, version, resource)) {
            found.set(gvkString(gvk), gvk);
            count++;
            if (count === MAX_TYPES_TO_CHECK) return sorted();
          }
        }
      }
    }
  }
  return sorted();
}

function declTypeOf(schema: JsonObject | undefined, name: string): DeclType | undefined {
  if (schema === undefined) return undefined;
  const t = schemaDeclType(schema, true);
  return t === undefined ? undefined : assignTypeNames(t, name);
}

/** The policy's expression warnings (empty when every expression checks against every kind). */
export function typeCheckPolicy(policy: KubeObject, schemas: TypeCheckSchemas): ExpressionWarning[] {
  const spec = obj(policy, 'spec');
  const paramKind = obj(spec, 'paramKind');
  const hasParams = paramKind !== undefined;
  let params: DeclType | undefined;
  if (paramKind !== undefined) {
    const apiVersion = typeof paramKind['apiVersion'] === 'string' ? paramKind['apiVersion'] : '';
    const kind = typeof paramKind['kind'] === 'string' ? paramKind['kind'] : '';
    const slash = apiVersion.indexOf('/');
    const gvk =
      slash < 0
        ? { group: '', version: apiVersion, kind }
        : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind };
    params = declTypeOf(schemas.schemaFor(gvk), 'params');
  }
  const kinds = typesToCheck(spec, schemas).flatMap((gvk) => {
    const object = declTypeOf(schemas.schemaFor(gvk), 'object');
    return object === undefined ? [] : [{ gvk, object }];
  });
  const warnings: ExpressionWarning[] = [];
  objs(spec, 'validations').forEach((v, i) => {
    const expression = typeof v['expression'] === 'string' ? v['expression'] : '';
    const lines: string[] = [];
    for (const { gvk, object } of kinds) {
      const variables = admissionVariables(
        { hasParams, hasAuthorizer: false },
        { object, ...(params !== undefined ? { params } : {}) },
      );
      const result = compileCel(expression, { variables });
      if (result.ok) continue;
      const text =
        result.issues.length > 0
          ? formatIssues(expression, result.issues)
          : `type checking error: ${result.error.detail}`;
      lines.push(`${gvkString(gvk)}: ${text}`);
    }
    if (lines.length > 0)
      warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: lines.join('\n') });
  });
  return warnings;
}
