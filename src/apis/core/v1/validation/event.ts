/** core/v1 Event validation (upstream legacyValidateEvent as served on the v1 API). */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { isDNS1123Subdomain } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { obj, str } from '../access.js';
import { invalidEach, validateQualifiedName } from './common.js';

const limits = { reportingInstance: 128, action: 128, reason: 128, message: 1024 } as const;

export function validateEvent(event: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = str(obj(event, 'metadata'), 'namespace') ?? '';
  const involvedNamespace = str(obj(event, 'involvedObject'), 'namespace') ?? '';
  const nsPath = FieldPath.root('involvedObject', 'namespace');
  const mismatch = (): FieldError =>
    fieldErrors.invalid(nsPath, involvedNamespace, 'does not match event.namespace');
  const eventTime = event['eventTime'];
  if (eventTime === undefined || eventTime === null || eventTime === '') {
    if (involvedNamespace === '') {
      if (namespace !== '' && namespace !== 'default') errs.push(mismatch());
    } else if (namespace !== involvedNamespace) {
      errs.push(mismatch());
    }
  } else {
    if (involvedNamespace === '' && namespace !== 'default' && namespace !== 'kube-system')
      errs.push(mismatch());
    const controller = str(event, 'reportingComponent') ?? '';
    if (controller === '') errs.push(fieldErrors.required('reportingComponent', ''));
    errs.push(...validateQualifiedName(controller, FieldPath.root('reportingComponent')));
    for (const key of ['reportingInstance', 'action', 'reason'] as const) {
      const v = str(event, key) ?? '';
      if (v === '') errs.push(fieldErrors.required(key, ''));
      if (v.length > limits[key])
        errs.push(fieldErrors.invalid(key, '', `can have at most ${limits[key]} characters`));
    }
    if ((str(event, 'message') ?? '').length > limits.message) {
      errs.push(fieldErrors.invalid('message', '', `can have at most ${limits.message} characters`));
    }
  }
  errs.push(...invalidEach(FieldPath.root('namespace'), namespace, isDNS1123Subdomain(namespace)));
  return errs;
}
