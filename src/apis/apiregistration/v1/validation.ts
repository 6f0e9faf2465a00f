/** APIService validation as kube-aggregator v0.27 pkg/apis/apiregistration/validation, on v1 JSON. */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import {
  isDNS1035Label,
  isDNS1123Subdomain,
  isValidPathSegmentName,
  isValidPortNum,
} from '../../../machinery/validation/names.js';
import { indexedObjs, num, obj, str } from '../../core/v1/access.js';

/**
 * The part of upstream's name function the store's path-segment check leaves out: the name (and a
 * generateName) must be `<spec.version>.<spec.group>`.
 */
function validateAPIServiceName(svc: KubeObject): FieldError[] {
  const spec = obj(svc, 'spec');
  const required = `${str(spec, 'version') ?? ''}.${str(spec, 'group') ?? ''}`;
  const msg = `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(required)}`;
  const errs: FieldError[] = [];
  const check = (field: string, value: string): void => {
    if (value !== '' && isValidPathSegmentName(value).length === 0 && value !== required) {
      errs.push(fieldErrors.invalid(FieldPath.root('metadata', field), value, msg));
    }
  };
  check('generateName', svc.metadata.generateName ?? '');
  check('name', svc.metadata.name ?? '');
  return errs;
}

/** Upstream ValidateAPIService (metadata beyond the name is checked by the store). */
export function validateAPIService(svc: KubeObject): FieldError[] {
  const errs = validateAPIServiceName(svc);
  const spec = obj(svc, 'spec');
  const path = FieldPath.root('spec');
  const group = str(spec, 'group') ?? '';
  const version = str(spec, 'version') ?? '';
  if (group === '' && version !== 'v1') {
    errs.push(
      fieldErrors.required(
        path.child('group'),
        'only v1 may have an empty group and it better be legacy kube',
      ),
    );
  }
  if (group !== '') {
    for (const m of isDNS1123Subdomain(group)) errs.push(fieldErrors.invalid(path.child('group'), group, m));
  }
  for (const m of isDNS1035Label(version)) errs.push(fieldErrors.invalid(path.child('version'), version, m));
  const groupPriority = num(spec, 'groupPriorityMinimum') ?? 0;
  if (groupPriority <= 0 || groupPriority > 20000) {
    errs.push(
      fieldErrors.invalid(
        path.child('groupPriorityMinimum'),
        groupPriority,
        'must be positive and less than 20000',
      ),
    );
  }
  const versionPriority = num(spec, 'versionPriority') ?? 0;
  if (versionPriority <= 0 || versionPriority > 1000) {
    errs.push(
      fieldErrors.invalid(
        path.child('versionPriority'),
        versionPriority,
        'must be positive and less than 1000',
      ),
    );
  }
  const caBundle = Buffer.from(str(spec, 'caBundle') ?? '', 'base64').length;
  const insecure = spec?.['insecureSkipTLSVerify'] === true;
  const service = obj(spec, 'service');
  if (service === undefined) {
    if (caBundle !== 0) {
      errs.push(
        fieldErrors.invalid(
          path.child('caBundle'),
          `${caBundle} bytes`,
          'local APIServices may not have a caBundle',
        ),
      );
    }
    if (insecure) {
      errs.push(
        fieldErrors.invalid(
          path.child('insecureSkipTLSVerify'),
          true,
          'local APIServices may not have insecureSkipTLSVerify',
        ),
      );
    }
    return errs;
  }
  const servicePath = path.child('service');
  if ((str(service, 'namespace') ?? '') === '')
    errs.push(fieldErrors.required(servicePath.child('namespace'), ''));
  if ((str(service, 'name') ?? '') === '') errs.push(fieldErrors.required(servicePath.child('name'), ''));
  const port = num(service, 'port') ?? 0;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) {
    errs.push(
      fieldErrors.invalid(servicePath.child('port'), port, `port is not valid: ${portErrs.join(', ')}`),
    );
  }
  if (insecure && caBundle > 0) {
    errs.push(
      fieldErrors.invalid(
        path.child('insecureSkipTLSVerify'),
        true,
        'may not be true if caBundle is present',
      ),
    );
  }
  return errs;
}

/** Upstream ValidateAPIServiceStatus: each condition's status is True, False or Unknown. */
export function validateAPIServiceStatus(svc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, c] of indexedObjs(obj(svc, 'status'), 'conditions')) {
    const status = str(c, 'status') ?? '';
    if (status !== 'True' && status !== 'False' && status !== 'Unknown') {
      errs.push(
        fieldErrors.notSupported(FieldPath.root('status', 'conditions').index(i).child('status'), status, [
          'True',
          'False',
          'Unknown',
        ]),
      );
    }
  }
  return errs;
}
