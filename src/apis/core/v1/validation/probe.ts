/** Probes and lifecycle handlers (upstream validateProbe, validateHandler). */
import { fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../../../machinery/field/errors.js';
import { isValidPortName, isValidPortNum } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { intOrStr, num, obj, str, strArr } from '../access.js';
import { invalidEach, validateNonnegative } from './common.js';

/** Upstream ValidatePortNumOrName. */
export function validatePortNumOrName(port: number | string | undefined, path: FieldPath): FieldError[] {
  if (typeof port === 'number') return invalidEach(path, port, isValidPortNum(port));
  if (typeof port === 'string') return invalidEach(path, port, isValidPortName(port));
  return invalidEach(path, 0, isValidPortNum(0));
}

const supportedSchemes = ['HTTP', 'HTTPS'];

function validateHTTPGet(h: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if ((str(h, 'path') ?? '') === '') errs.push(fieldErrors.required(path.child('path'), ''));
  errs.push(...validatePortNumOrName(intOrStr(h, 'port'), path.child('port')));
  const scheme = str(h, 'scheme') ?? '';
  if (!supportedSchemes.includes(scheme))
    errs.push(fieldErrors.notSupported(path.child('scheme'), scheme, supportedSchemes));
  return errs;
}

/** Exactly one of exec, httpGet, tcpSocket (and grpc for probes). */
export function validateHandler(h: JsonObject, path: FieldPath, allowGRPC: boolean): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  const one = (key: string, check: (x: JsonObject, p: FieldPath) => FieldError[]): void => {
    const x = obj(h, key);
    if (x === undefined) return;
    if (count > 0)
      errs.push(fieldErrors.forbidden(path.child(key), 'may not specify more than 1 handler type'));
    else errs.push(...check(x, path.child(key)));
    count++;
  };
  one('exec', (x, p) =>
    strArr(x, 'command').length === 0 ? [fieldErrors.required(p.child('command'), '')] : [],
  );
  one('httpGet', validateHTTPGet);
  one('tcpSocket', (x, p) => validatePortNumOrName(intOrStr(x, 'port'), p.child('port')));
  if (allowGRPC) {
    one('grpc', (x, p) => {
      const port = num(x, 'port') ?? 0;
      return invalidEach(p.child('port'), port, isValidPortNum(port));
    });
  }
  if (count === 0) errs.push(fieldErrors.required(path, 'must specify a handler type'));
  return errs;
}

export function validateProbe(probe: JsonObject | undefined, path: FieldPath): FieldError[] {
  if (probe === undefined) return [];
  const errs = validateHandler(probe, path, true);
  for (const key of [
    'initialDelaySeconds',
    'timeoutSeconds',
    'periodSeconds',
    'successThreshold',
    'failureThreshold',
  ]) {
    errs.push(...validateNonnegative(num(probe, key) ?? 0, path.child(key)));
  }
  const grace = num(probe, 'terminationGracePeriodSeconds');
  if (grace !== undefined && grace <= 0) {
    errs.push(
      fieldErrors.invalid(path.child('terminationGracePeriodSeconds'), grace, 'must be greater than 0'),
    );
  }
  return errs;
}

export function validateLifecycle(lifecycle: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['postStart', 'preStop']) {
    const h = obj(lifecycle, key);
    if (h !== undefined) errs.push(...validateHandler(h, path.child(key), false));
  }
  return errs;
}
