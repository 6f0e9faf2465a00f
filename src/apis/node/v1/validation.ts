/**
 * RuntimeClass validation as pkg/apis/node/validation (release-1.27), on node/v1 JSON. metadata is
 * validated by the generic store first (DNS subdomain names), as upstream's ValidateObjectMeta call
 * comes first. PodOverhead is GA (its gate is gone in v1.27), so overhead is always validated.
 */
import { FieldPath, fieldErrors, goQuote } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import { invalidRendered } from '../../../machinery/validation/gosyntax.js';
import type { KubeObject } from '../../../machinery/object.js';
import { isDNS1123Label, isQualifiedName, isValidLabelValue } from '../../../machinery/validation/names.js';
import { fieldImmutableErrorMsg, validateLabels } from '../../../machinery/validation/objectmeta.js';
import type { JsonObject } from '../../../util/json.js';
import { indexedObjs, num, obj, str, strMap } from '../../core/v1/access.js';
import { duplicateRendered } from '../../core/v1/validation/common.js';
import { validateResourceRequirements } from '../../core/v1/validation/resources.js';

const tolerationOperators = ['Equal', 'Exists'];
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
/** Pointer addresses cannot match upstream's (they differ per process); a fixed one stands in. */
const fakePointer = '0xc000010000';

/** Go `%#v` of an internal core.Toleration, as upstream prints it in Invalid and Duplicate errors. */
export function goToleration(t: JsonObject): string {
  const seconds = num(t, 'tolerationSeconds') === undefined ? 'nil' : fakePointer;
  return (
    `core.Toleration{Key:${goQuote(str(t, 'key') ?? '')}, Operator:${goQuote(str(t, 'operator') ?? '')}, ` +
    `Value:${goQuote(str(t, 'value') ?? '')}, Effect:${goQuote(str(t, 'effect') ?? '')}, ` +
    `TolerationSeconds:(*int64)(${seconds})}`
  );
}

/** Upstream core ValidateTolerations. */
function validateTolerationList(list: [number, JsonObject][], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, t] of list) {
    const p = path.index(i);
    const key = str(t, 'key') ?? '';
    const operator = str(t, 'operator') ?? '';
    const value = str(t, 'value') ?? '';
    const effect = str(t, 'effect') ?? '';
    if (key !== '') {
      for (const msg of isQualifiedName(key)) errs.push(fieldErrors.invalid(p.child('key'), key, msg));
    }
    if (key === '' && operator !== 'Exists') {
      errs.push(
        fieldErrors.invalid(
          p.child('operator'),
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    if (num(t, 'tolerationSeconds') !== undefined && effect !== 'NoExecute') {
      errs.push(
        fieldErrors.invalid(
          p.child('effect'),
          effect,
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      );
    }
    if (operator === 'Equal' || operator === '') {
      const msgs = isValidLabelValue(value);
      // Upstream reports a bad value on `operator`, its messages joined by ";".
      if (msgs.length > 0) errs.push(fieldErrors.invalid(p.child('operator'), value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value !== '') {
        errs.push(
          invalidRendered(
            p.child('operator'),
            goToleration(t),
            "value must be empty when `operator` is 'Exists'",
          ),
        );
      }
    } else {
      errs.push(fieldErrors.notSupported(p.child('operator'), operator, tolerationOperators));
    }
    if (effect !== '' && !taintEffects.includes(effect)) {
      errs.push(fieldErrors.notSupported(p.child('effect'), effect, taintEffects));
    }
  }
  return errs;
}

/** Upstream validateTolerations of node validation: core's rules, then uniqueness of the list keys. */
function validateTolerations(list: [number, JsonObject][], path: FieldPath): FieldError[] {
  const errs = validateTolerationList(list, path);
  const seen = new Set<string>();
  for (const [i, t] of list) {
    // The list keys: tolerationSeconds does not tell two tolerations apart.
    const id = JSON.stringify(['key', 'operator', 'value', 'effect'].map((k) => str(t, k) ?? ''));
    if (seen.has(id)) errs.push(duplicateRendered(path.index(i), goToleration(t)));
    else seen.add(id);
  }
  return errs;
}

function validateScheduling(scheduling: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const selector = strMap(scheduling, 'nodeSelector');
  if (selector !== undefined) errs.push(...validateLabels(selector, path.child('nodeSelector')));
  errs.push(...validateTolerations(indexedObjs(scheduling, 'tolerations'), path.child('tolerations')));
  return errs;
}

/** Upstream ValidateRuntimeClass, after ValidateObjectMeta. */
export function validateRuntimeClass(rc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const handler = str(rc, 'handler') ?? '';
  for (const msg of isDNS1123Label(handler))
    errs.push(fieldErrors.invalid(FieldPath.root('handler'), handler, msg));
  const overhead = obj(rc, 'overhead');
  if (overhead !== undefined) {
    // Upstream reuses ResourceRequirements validation with podFixed as the limits.
    const podFixed = obj(overhead, 'podFixed');
    errs.push(
      ...validateResourceRequirements(
        podFixed === undefined ? {} : { limits: podFixed },
        FieldPath.root('overhead'),
      ),
    );
  }
  const scheduling = obj(rc, 'scheduling');
  if (scheduling !== undefined) errs.push(...validateScheduling(scheduling, FieldPath.root('scheduling')));
  return errs;
}

/** Upstream ValidateRuntimeClassUpdate, after ValidateObjectMetaUpdate: the handler is immutable. */
export function validateRuntimeClassUpdate(rc: KubeObject, old: KubeObject): FieldError[] {
  const handler = str(rc, 'handler') ?? '';
  if (handler === (str(old, 'handler') ?? '')) return [];
  return [fieldErrors.invalid(FieldPath.root('handler'), handler, fieldImmutableErrorMsg)];
}
