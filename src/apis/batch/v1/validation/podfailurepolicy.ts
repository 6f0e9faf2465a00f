/** Job pod failure policy validation (upstream validatePodFailurePolicy, release-1.27). */
import { fieldErrors, goQuote, omitValue, FieldError } from '../../../../machinery/field/errors.js';
import type { FieldPath } from '../../../../machinery/field/errors.js';
import { isQualifiedName } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { indexedObjs, obj, objArr, str } from '../../../core/v1/access.js';

const maxRules = 20;
const maxExitCodeValues = 255;
const maxConditionPatterns = 20;

const actions = ['Count', 'FailJob', 'Ignore'];
const operators = ['In', 'NotIn'];
const statuses = ['False', 'True', 'Unknown'];

/** Go's `%q` of a []string: `["a" "b"]`. */
function goQuotedList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

function goInt32Slice(values: readonly number[]): string {
  return `[]int32{${values.join(', ')}}`;
}

function validateOnExitCodes(req: JsonObject, path: FieldPath, containerNames: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(req, 'operator') ?? '';
  if (op === '') {
    errs.push(fieldErrors.required(path.child('operator'), `valid values: ${goQuotedList(operators)}`));
  } else if (!operators.includes(op)) {
    errs.push(fieldErrors.notSupported(path.child('operator'), op, operators));
  }
  const containerName = str(req, 'containerName');
  if (containerName !== undefined && !containerNames.has(containerName)) {
    errs.push(
      fieldErrors.invalid(
        path.child('containerName'),
        containerName,
        'must be one of the container or initContainer names in the pod template',
      ),
    );
  }
  const raw = req['values'];
  const values = Array.isArray(raw) ? raw.filter((v): v is number => typeof v === 'number') : [];
  const valuesPath = path.child('values');
  if (values.length === 0) {
    const rendered = Array.isArray(raw) ? goInt32Slice(values) : '[]int32(nil)';
    errs.push(
      new FieldError(
        'FieldValueInvalid',
        valuesPath,
        omitValue,
        `${rendered}: at least one value is required`,
      ),
    );
  } else if (values.length > maxExitCodeValues) {
    errs.push(fieldErrors.tooMany(valuesPath, values.length, maxExitCodeValues));
  }
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (op === 'In' && v === 0)
      errs.push(fieldErrors.invalid(valuesPath.index(j), v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(fieldErrors.duplicate(valuesPath.index(j), v));
    else seen.add(v);
    if (j > 0 && (values[j - 1] ?? 0) > v) ordered = false;
  });
  if (!ordered) {
    errs.push(
      new FieldError('FieldValueInvalid', valuesPath, omitValue, `${goInt32Slice(values)}: must be ordered`),
    );
  }
  return errs;
}

function validateOnPodConditions(patterns: JsonObject[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (patterns.length > maxConditionPatterns)
    errs.push(fieldErrors.tooMany(path, patterns.length, maxConditionPatterns));
  patterns.forEach((p, j) => {
    const pp = path.index(j);
    const type = str(p, 'type') ?? '';
    for (const msg of isQualifiedName(type)) errs.push(fieldErrors.invalid(pp.child('type'), type, msg));
    const status = str(p, 'status') ?? '';
    if (status === '')
      errs.push(fieldErrors.required(pp.child('status'), `valid values: ${goQuotedList(statuses)}`));
    else if (!statuses.includes(status))
      errs.push(fieldErrors.notSupported(pp.child('status'), status, statuses));
  });
  return errs;
}

function validateRule(rule: JsonObject, path: FieldPath, containerNames: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const action = str(rule, 'action') ?? '';
  if (action === '')
    errs.push(fieldErrors.required(path.child('action'), `valid values: ${goQuotedList(actions)}`));
  else if (!actions.includes(action))
    errs.push(fieldErrors.notSupported(path.child('action'), action, actions));
  const onExitCodes = obj(rule, 'onExitCodes');
  const onPodConditions = objArr(rule, 'onPodConditions');
  if (onExitCodes !== undefined)
    errs.push(...validateOnExitCodes(onExitCodes, path.child('onExitCodes'), containerNames));
  if (onPodConditions.length > 0)
    errs.push(...validateOnPodConditions(onPodConditions, path.child('onPodConditions')));
  if (onExitCodes !== undefined && onPodConditions.length > 0) {
    errs.push(
      fieldErrors.invalid(
        path,
        omitValue,
        'specifying both OnExitCodes and OnPodConditions is not supported',
      ),
    );
  }
  if (onExitCodes === undefined && onPodConditions.length === 0) {
    errs.push(
      fieldErrors.invalid(path, omitValue, 'specifying one of OnExitCodes and OnPodConditions is required'),
    );
  }
  return errs;
}

export function validatePodFailurePolicy(spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const policy = obj(spec, 'podFailurePolicy');
  const rules = indexedObjs(policy, 'rules');
  const rulesPath = path.child('rules');
  if (rules.length > maxRules) errs.push(fieldErrors.tooMany(rulesPath, rules.length, maxRules));
  const podSpec = obj(obj(spec, 'template'), 'spec');
  const names = new Set<string>();
  for (const list of ['containers', 'initContainers']) {
    for (const c of objArr(podSpec, list)) {
      const n = str(c, 'name');
      if (n !== undefined) names.add(n);
    }
  }
  for (const [i, rule] of rules) errs.push(...validateRule(rule, rulesPath.index(i), names));
  return errs;
}
