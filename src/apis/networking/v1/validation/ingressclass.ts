/** IngressClass validation as pkg/apis/networking/validation (release-1.27), on networking/v1 JSON. */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { fieldImmutableErrorMsg } from '../../../../machinery/validation/objectmeta.js';
import { isDNS1123Label } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { obj, str } from '../../../core/v1/access.js';
import { invalidEach } from '../../../core/v1/validation/common.js';
import { validateTypedLocalObjectReference } from './ingress.js';
import { isDomainPrefixedPath } from './strings.js';

const maxLenIngressClassController = 250;
const supportedScopes = ['Cluster', 'Namespace'];

/** Upstream validateIngressClassParametersReference: the reference, then its scope rules. */
function validateParameters(params: JsonObject, path: FieldPath): FieldError[] {
  const errs = validateTypedLocalObjectReference(params, path);
  const scope = str(params, 'scope');
  if (scope === undefined) {
    errs.push(fieldErrors.required(path.child('scope'), ''));
    return errs;
  }
  const namespace = str(params, 'namespace');
  if (!supportedScopes.includes(scope)) {
    errs.push(fieldErrors.notSupported(path.child('scope'), scope, supportedScopes));
    return errs;
  }
  if (scope === 'Namespace') {
    if (namespace === undefined) {
      errs.push(fieldErrors.required(path.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    } else {
      errs.push(...invalidEach(path.child('namespace'), namespace, isDNS1123Label(namespace)));
    }
  }
  if (scope === 'Cluster' && namespace !== undefined) {
    errs.push(fieldErrors.forbidden(path.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  }
  return errs;
}

/** Upstream validateIngressClassSpec. */
export function validateIngressClass(ic: KubeObject): FieldError[] {
  const path = FieldPath.root('spec');
  const spec = obj(ic, 'spec');
  const controller = str(spec, 'controller') ?? '';
  const errs: FieldError[] = [];
  if (Buffer.byteLength(controller, 'utf8') > maxLenIngressClassController) {
    errs.push(fieldErrors.tooLong(path.child('controller'), controller, maxLenIngressClassController));
  }
  errs.push(...isDomainPrefixedPath(path.child('controller'), controller));
  const params = obj(spec, 'parameters');
  if (params !== undefined) errs.push(...validateParameters(params, path.child('parameters')));
  return errs;
}

/** Upstream ValidateIngressClassUpdate: the controller may not change, then the whole class. */
export function validateIngressClassUpdate(ic: KubeObject, old: KubeObject): FieldError[] {
  const controller = str(obj(ic, 'spec'), 'controller') ?? '';
  const errs: FieldError[] = [];
  if (controller !== (str(obj(old, 'spec'), 'controller') ?? '')) {
    errs.push(fieldErrors.invalid(FieldPath.root('spec', 'controller'), controller, fieldImmutableErrorMsg));
  }
  errs.push(...validateIngressClass(ic));
  return errs;
}
