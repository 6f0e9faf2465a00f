/** Node validation, kept small: taints, podCIDRs and their update rules. */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { parseIPSloppy } from '../../../../machinery/validation/ip.js';
import { isValidLabelValue } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { indexedObjs, obj, str, strArr } from '../access.js';
import { duplicateRendered, validateQualifiedName } from './common.js';

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = parseIPSloppy(s.slice(0, slash));
  const bits = s.slice(slash + 1);
  if (ip === undefined || !/^[0-9]+$/.test(bits)) return false;
  return Number(bits) <= ip.length * 8;
}

export function validateNode(node: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj(node, 'spec');
  const seen = new Set<string>();
  for (const [i, taint] of indexedObjs(spec, 'taints')) {
    const p = FieldPath.root('spec', 'taints').index(i);
    const key = str(taint, 'key') ?? '';
    errs.push(...validateQualifiedName(key, p.child('key')));
    const value = str(taint, 'value') ?? '';
    const msgs = isValidLabelValue(value);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(p.child('value'), value, msgs.join(';')));
    const effect = str(taint, 'effect') ?? '';
    if (effect === '') errs.push(fieldErrors.required(p.child('effect'), ''));
    else if (!taintEffects.includes(effect))
      errs.push(fieldErrors.notSupported(p.child('effect'), effect, taintEffects));
    const id = `${effect}/${key}`;
    if (seen.has(id)) {
      const rendered = `core.Taint{Key:${JSON.stringify(key)}, Value:${JSON.stringify(value)}, Effect:${JSON.stringify(effect)}, TimeAdded:<nil>}`;
      errs.push(duplicateRendered(p, rendered, 'taints must be unique by key and effect pair'));
      continue;
    }
    seen.add(id);
  }
  strArr(spec, 'podCIDRs').forEach((cidr, i) => {
    if (!isCIDR(cidr)) {
      errs.push(
        fieldErrors.invalid(FieldPath.root('spec', 'podCIDRs').index(i), cidr, 'must be a valid CIDR'),
      );
    }
  });
  return errs;
}

export function validateNodeUpdate(node: JsonObject, old: JsonObject): FieldError[] {
  const errs = validateNode(node);
  const spec = obj(node, 'spec');
  const oldSpec = obj(old, 'spec');
  const oldCIDRs = strArr(oldSpec, 'podCIDRs');
  if (oldCIDRs.length > 0 && oldCIDRs.join(',') !== strArr(spec, 'podCIDRs').join(',')) {
    errs.push(
      fieldErrors.forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'),
    );
  }
  const oldProvider = str(oldSpec, 'providerID') ?? '';
  if (oldProvider !== '' && oldProvider !== (str(spec, 'providerID') ?? '')) {
    errs.push(
      fieldErrors.forbidden(
        'spec.providerID',
        'node updates may only set providerID if it was not already set',
      ),
    );
  }
  return errs;
}
