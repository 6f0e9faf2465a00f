/** Node selectors (upstream ValidateNodeSelector and its term/requirement validators). */
import { fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../../../machinery/field/errors.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { indexedObjs, str, strArr } from '../access.js';
import { invalidEach } from './common.js';

function valuesCount(req: JsonObject): number {
  const v = req['values'];
  return Array.isArray(v) ? v.length : 0;
}

function validateRequirement(req: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(req, 'operator') ?? '';
  const n = valuesCount(req);
  switch (op) {
    case 'In':
    case 'NotIn':
      if (n === 0) {
        errs.push(
          fieldErrors.required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"),
        );
      }
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (n > 0) {
        errs.push(
          fieldErrors.forbidden(
            path.child('values'),
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        );
      }
      break;
    case 'Gt':
    case 'Lt':
      if (n !== 1) {
        errs.push(
          fieldErrors.required(
            path.child('values'),
            "must be specified single value when `operator` is 'Lt' or 'Gt'",
          ),
        );
      }
      break;
    default:
      errs.push(fieldErrors.invalid(path.child('operator'), op, 'not a valid selector operator'));
  }
  const key = str(req, 'key') ?? '';
  errs.push(...invalidEach(path.child('key'), key, isQualifiedName(key)));
  return errs;
}

function validateFieldRequirement(req: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(req, 'operator') ?? '';
  if (op === 'In' || op === 'NotIn') {
    if (valuesCount(req) !== 1) {
      errs.push(
        fieldErrors.required(
          path.child('values'),
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      );
    }
  } else {
    errs.push(fieldErrors.invalid(path.child('operator'), op, 'not a valid selector operator'));
  }
  const key = str(req, 'key') ?? '';
  if (key !== 'metadata.name') {
    errs.push(fieldErrors.invalid(path.child('key'), key, 'not a valid field selector key'));
  } else {
    strArr(req, 'values').forEach((v, i) => {
      errs.push(...invalidEach(path.child('values').index(i), v, nameIsDNSSubdomain(v, false)));
    });
  }
  return errs;
}

/** Upstream ValidateNodeSelector: at least one term, each requirement well formed. */
export function validateNodeSelector(sel: JsonObject, path: FieldPath): FieldError[] {
  const termsPath = path.child('nodeSelectorTerms');
  const terms = indexedObjs(sel, 'nodeSelectorTerms');
  const raw = sel['nodeSelectorTerms'];
  if (!Array.isArray(raw) || raw.length === 0) {
    return [fieldErrors.required(termsPath, 'must have at least one node selector term')];
  }
  const errs: FieldError[] = [];
  for (const [i, term] of terms) errs.push(...validateNodeSelectorTerm(term, termsPath.index(i)));
  return errs;
}

/** Upstream ValidateNodeSelectorTerm: its match expressions and match fields. */
export function validateNodeSelectorTerm(term: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [j, req] of indexedObjs(term, 'matchExpressions')) {
    errs.push(...validateRequirement(req, p.child('matchExpressions').index(j)));
  }
  for (const [j, req] of indexedObjs(term, 'matchFields')) {
    errs.push(...validateFieldRequirement(req, p.child('matchFields').index(j)));
  }
  return errs;
}
