/**
 * Go `%#v` renderings of the internal flowcontrol values validation reports whole (a distinguisher
 * method, a mandatory object's spec), so messages read like kube-apiserver v1.27's. Nested pointers
 * print as an address in Go; a fixed one stands in for it (upstream's differs per process).
 */
import { goQuote } from '../../machinery/field/errors.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonValue } from '../../util/json.js';

const fakePointer = '0xc000010000';
const pkg = 'flowcontrol';

type Render = (v: JsonValue) => string;

const goStr: Render = (v) => goQuote(typeof v === 'string' ? v : '');
const goInt: Render = (v) => String(typeof v === 'number' ? v : 0);
const goBool: Render = (v) => String(v === true);

/** A struct value: `flowcontrol.T{A:…, B:…}` with fields in Go's order. */
function struct(type: string, fields: readonly (readonly [goName: string, json: string, render: Render])[]) {
  return (v: JsonValue): string => {
    const o = isJsonObject(v) ? v : {};
    const parts = fields.map(([goName, json, render]) => `${goName}:${render(o[json] ?? null)}`);
    return `${pkg}.${type}{${parts.join(', ')}}`;
  };
}

/** A pointer field: `(*flowcontrol.T)(nil)` or an address. */
function pointer(type: string): Render {
  return (v) => `(*${type})(${v === null ? 'nil' : fakePointer})`;
}

function slice(type: string, item: Render): Render {
  return (v) => (Array.isArray(v) ? `[]${type}{${v.map(item).join(', ')}}` : `[]${type}(nil)`);
}

const strings = slice('string', goStr);

const subject = struct('Subject', [
  ['Kind', 'kind', goStr],
  ['User', 'user', pointer(`${pkg}.UserSubject`)],
  ['Group', 'group', pointer(`${pkg}.GroupSubject`)],
  ['ServiceAccount', 'serviceAccount', pointer(`${pkg}.ServiceAccountSubject`)],
]);

const resourceRule = struct('ResourcePolicyRule', [
  ['Verbs', 'verbs', strings],
  ['APIGroups', 'apiGroups', strings],
  ['Resources', 'resources', strings],
  ['ClusterScope', 'clusterScope', goBool],
  ['Namespaces', 'namespaces', strings],
]);

const nonResourceRule = struct('NonResourcePolicyRule', [
  ['Verbs', 'verbs', strings],
  ['NonResourceURLs', 'nonResourceURLs', strings],
]);

const rules = struct('PolicyRulesWithSubjects', [
  ['Subjects', 'subjects', slice(`${pkg}.Subject`, subject)],
  ['ResourceRules', 'resourceRules', slice(`${pkg}.ResourcePolicyRule`, resourceRule)],
  ['NonResourceRules', 'nonResourceRules', slice(`${pkg}.NonResourcePolicyRule`, nonResourceRule)],
]);

/** `flowcontrol.FlowDistinguisherMethod{Type:"ByUser"}`. */
export const goDistinguisherMethod: Render = struct('FlowDistinguisherMethod', [['Type', 'type', goStr]]);

/** A FlowSchemaSpec as `%#v` prints the internal struct. */
export const goFlowSchemaSpec: Render = struct('FlowSchemaSpec', [
  [
    'PriorityLevelConfiguration',
    'priorityLevelConfiguration',
    struct('PriorityLevelConfigurationReference', [['Name', 'name', goStr]]),
  ],
  ['MatchingPrecedence', 'matchingPrecedence', goInt],
  ['DistinguisherMethod', 'distinguisherMethod', pointer(`${pkg}.FlowDistinguisherMethod`)],
  ['Rules', 'rules', slice(`${pkg}.PolicyRulesWithSubjects`, rules)],
]);

/** A PriorityLevelConfigurationSpec as `%#v` prints the internal struct (v1.27: Type, Limited). */
export const goPriorityLevelConfigurationSpec: Render = struct('PriorityLevelConfigurationSpec', [
  ['Type', 'type', goStr],
  ['Limited', 'limited', pointer(`${pkg}.LimitedPriorityLevelConfiguration`)],
]);
