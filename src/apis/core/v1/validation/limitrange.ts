/** LimitRange validation (upstream ValidateLimitRange, release-1.27), on core/v1 JSON. */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import {
  compareQuantity,
  parseQuantity,
  quantityMilliValue,
  quantityValue,
} from '../../../../machinery/quantity/quantity.js';
import type { Quantity } from '../../../../machinery/quantity/quantity.js';
import { isQualifiedName } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { indexedObjs, obj, str } from '../access.js';
import { invalidEach } from './common.js';
import {
  invalidQuantity,
  isOvercommitAllowed,
  quantities,
  quantityString,
  validateContainerResourceName,
  validateResourceName,
} from './resource-names.js';

const standardLimitTypes = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);

function validateLimitRangeTypeName(value: string, path: FieldPath): FieldError[] {
  const errs = invalidEach(path, value, isQualifiedName(value));
  if (errs.length > 0) return errs;
  if (!value.includes('/') && !standardLimitTypes.has(value)) {
    errs.push(fieldErrors.invalid(path, value, 'must be a standard limit type or fully qualified'));
  }
  return errs;
}

function validateLimitRangeResourceName(type: string, name: string, path: FieldPath): FieldError[] {
  return type === 'Pod' || type === 'Container'
    ? validateContainerResourceName(name, path)
    : validateResourceName(name, path);
}

/** Upstream's float `%f`: six decimals. */
function goFloat(v: number): string {
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (Number.isNaN(v)) return 'NaN';
  return v.toFixed(6);
}

const maxMilliValue = 2n ** 63n / 1000n;
const one = parseQuantity('1');

/** The min/max/default/ratio consistency checks of one resource of one item. */
function validateResourceBounds(
  k: string,
  idx: FieldPath,
  b: {
    min?: Quantity | undefined;
    max?: Quantity | undefined;
    def?: Quantity | undefined;
    defReq?: Quantity | undefined;
    ratio?: Quantity | undefined;
  },
): FieldError[] {
  const errs: FieldError[] = [];
  const s = quantityString;
  const { min, max, def, defReq, ratio } = b;
  if (min !== undefined && max !== undefined && compareQuantity(min, max) > 0) {
    errs.push(
      invalidQuantity(
        idx.child('min').key(k),
        min,
        `min value ${s(min)} is greater than max value ${s(max)}`,
      ),
    );
  }
  if (defReq !== undefined && min !== undefined && compareQuantity(min, defReq) > 0) {
    errs.push(
      invalidQuantity(
        idx.child('defaultRequest').key(k),
        defReq,
        `min value ${s(min)} is greater than default request value ${s(defReq)}`,
      ),
    );
  }
  if (defReq !== undefined && max !== undefined && compareQuantity(defReq, max) > 0) {
    errs.push(
      invalidQuantity(
        idx.child('defaultRequest').key(k),
        defReq,
        `default request value ${s(defReq)} is greater than max value ${s(max)}`,
      ),
    );
  }
  if (defReq !== undefined && def !== undefined && compareQuantity(defReq, def) > 0) {
    errs.push(
      invalidQuantity(
        idx.child('defaultRequest').key(k),
        defReq,
        `default request value ${s(defReq)} is greater than default limit value ${s(def)}`,
      ),
    );
  }
  if (def !== undefined && min !== undefined && compareQuantity(min, def) > 0) {
    errs.push(
      invalidQuantity(
        idx.child('default').key(k),
        min,
        `min value ${s(min)} is greater than default value ${s(def)}`,
      ),
    );
  }
  if (def !== undefined && max !== undefined && compareQuantity(def, max) > 0) {
    errs.push(
      invalidQuantity(
        idx.child('default').key(k),
        max,
        `default value ${s(def)} is greater than max value ${s(max)}`,
      ),
    );
  }
  if (ratio !== undefined && compareQuantity(ratio, one) < 0) {
    errs.push(
      invalidQuantity(idx.child('maxLimitRequestRatio').key(k), ratio, `ratio ${s(ratio)} is less than 1`),
    );
  }
  if (ratio !== undefined && min !== undefined && max !== undefined) {
    let ratioValue = Number(quantityValue(ratio));
    let minValue = quantityValue(min);
    let maxValue = quantityValue(max);
    if (quantityValue(ratio) < maxMilliValue && minValue < maxMilliValue && maxValue < maxMilliValue) {
      ratioValue = Number(quantityMilliValue(ratio)) / 1000;
      minValue = quantityMilliValue(min);
      maxValue = quantityMilliValue(max);
    }
    const limit = Number(maxValue) / Number(minValue);
    if (ratioValue > limit) {
      errs.push(
        invalidQuantity(
          idx.child('maxLimitRequestRatio').key(k),
          ratio,
          `ratio ${s(ratio)} is greater than max/min = ${goFloat(limit)}`,
        ),
      );
    }
  }
  if (
    !isOvercommitAllowed(k) &&
    def !== undefined &&
    defReq !== undefined &&
    compareQuantity(def, defReq) !== 0
  ) {
    errs.push(
      invalidQuantity(
        idx.child('defaultRequest').key(k),
        defReq,
        `default value ${s(def)} must equal to defaultRequest value ${s(defReq)} in ${k}`,
      ),
    );
  }
  return errs;
}

function validateItem(item: JsonObject, idx: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(item, 'type') ?? '';
  const keys = new Set<string>();
  const read = (field: string): Map<string, Quantity> => {
    const list = obj(item, field);
    const out = new Map<string, Quantity>();
    for (const name of Object.keys(list ?? {}).sort()) {
      errs.push(...validateLimitRangeResourceName(type, name, idx.child(field).key(name)));
      keys.add(name);
    }
    for (const [name, q] of quantities(list, idx.child(field), errs)) out.set(name, q);
    return out;
  };
  const max = read('max');
  const min = read('min');
  let defaults = new Map<string, Quantity>();
  let defaultRequests = new Map<string, Quantity>();
  if (type === 'Pod') {
    if (Object.keys(obj(item, 'default') ?? {}).length > 0) {
      errs.push(fieldErrors.forbidden(idx.child('default'), "may not be specified when `type` is 'Pod'"));
    }
    if (Object.keys(obj(item, 'defaultRequest') ?? {}).length > 0) {
      errs.push(
        fieldErrors.forbidden(idx.child('defaultRequest'), "may not be specified when `type` is 'Pod'"),
      );
    }
  } else {
    defaults = read('default');
    defaultRequests = read('defaultRequest');
  }
  if (type === 'PersistentVolumeClaim' && !min.has('storage') && !max.has('storage')) {
    errs.push(
      fieldErrors.required(
        idx.child('limits'),
        'either minimum or maximum storage value is required, but neither was provided',
      ),
    );
  }
  const ratios = read('maxLimitRequestRatio');
  for (const k of [...keys].sort()) {
    errs.push(
      ...validateResourceBounds(k, idx, {
        min: min.get(k),
        max: max.get(k),
        def: defaults.get(k),
        defReq: defaultRequests.get(k),
        ratio: ratios.get(k),
      }),
    );
  }
  return errs;
}

/** Upstream ValidateLimitRange without the ObjectMeta part (the generic store checks that). */
export function validateLimitRange(lr: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const path = FieldPath.root('spec', 'limits');
  for (const [i, item] of indexedObjs(obj(lr, 'spec'), 'limits')) {
    const idx = path.index(i);
    const type = str(item, 'type') ?? '';
    errs.push(...validateLimitRangeTypeName(type, idx.child('type')));
    if (seen.has(type)) errs.push(fieldErrors.duplicate(idx.child('type'), type));
    seen.add(type);
    errs.push(...validateItem(item, idx));
  }
  return errs;
}
