/**
 * ValidatingWebhookConfiguration and MutatingWebhookConfiguration validation as upstream
 * pkg/apis/admissionregistration/validation (release-1.27) and k8s.io/apiserver's webhook URL and
 * service checks, on admissionregistration.k8s.io/v1 JSON. Metadata is validated generically.
 *
 * Not done: the CEL compilation of matchConditions expressions (no CEL engine yet); their name,
 * count, uniqueness and non-empty expression are checked.
 */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { invalidRendered, goStringSlice } from '../../../machinery/validation/gosyntax.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum } from '../../../machinery/validation/names.js';
import { jsonEqual } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { indexedObjs, num, obj, objArr, str, strArr } from '../../core/v1/access.js';
import {
  hasInvalidLabelValue,
  setString,
  supportedFailurePolicies,
  supportedMatchPolicies,
  validateMatchConditions,
  validateRuleWithOperations,
  type ExpressionCompiler,
  validateSelector,
} from './common.js';
import { parseGoURL, userinfoString } from './url.js';

export type WebhookKind = 'validating' | 'mutating';

const supportedSideEffectClasses = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const noSideEffectClasses = ['None', 'NoneOnDryRun'];
const supportedReinvocationPolicies = ['IfNeeded', 'Never'];
/** The AdmissionReview versions this server (and the one before it) understands. */
const acceptedAdmissionReviewVersions = ['v1', 'v1beta1'];

export interface WebhookValidationOptions {
  readonly ignoreMatchConditions: boolean;
  /** Compiles match conditions (absent: only their shape is checked). */
  readonly compile?: ExpressionCompiler;
  readonly requireNoSideEffects: boolean;
  readonly requireRecognizedAdmissionReviewVersion: boolean;
  readonly requireUniqueWebhookNames: boolean;
  readonly allowInvalidLabelValueInSelector: boolean;
}

const createOptions: WebhookValidationOptions = {
  ignoreMatchConditions: false,
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  allowInvalidLabelValueInSelector: false,
};

/** apimachinery IsFullyQualifiedName: a DNS subdomain of at least three segments. */
function validateFullyQualifiedName(name: string, path: FieldPath): FieldError[] {
  if (name === '') return [fieldErrors.required(path, '')];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [fieldErrors.invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) {
    return [
      fieldErrors.invalid(path, name, 'should be a domain with at least three segments separated by dots'),
    ];
  }
  return [];
}

const urlForm = '; desired format: https://host[/path]';

/** k8s.io/apiserver ValidateWebhookURL with https forced. */
export function validateWebhookURL(raw: string, path: FieldPath): FieldError[] {
  const u = parseGoURL(raw);
  if ('error' in u) return [fieldErrors.required(path, `url must be a valid URL: ${u.error}${urlForm}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') {
    errs.push(fieldErrors.invalid(path, u.scheme, `'https' is the only allowed URL scheme${urlForm}`));
  }
  if (u.host === '') errs.push(fieldErrors.invalid(path, u.host, `host must be provided${urlForm}`));
  if (u.user !== undefined) {
    errs.push(
      fieldErrors.invalid(path, userinfoString(u.user), 'user information is not permitted in the URL'),
    );
  }
  if (u.fragment !== '') {
    errs.push(fieldErrors.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  }
  if (u.rawQuery !== '') {
    errs.push(fieldErrors.invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  }
  return errs;
}

/**
 * k8s.io/apiserver ValidateWebhookService. Upstream passes the service's name where the function
 * expects the namespace and the other way round, so a missing name is reported on `namespace`
 * ("service namespace is required") and a missing namespace on `name`; kept as is.
 */
export function validateWebhookService(service: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const asNamespace = str(service, 'name') ?? '';
  const asName = str(service, 'namespace') ?? '';
  if (asName === '') errs.push(fieldErrors.required(path.child('name'), 'service name is required'));
  if (asNamespace === '') {
    errs.push(fieldErrors.required(path.child('namespace'), 'service namespace is required'));
  }
  const port = num(service, 'port') ?? 0;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) {
    errs.push(fieldErrors.invalid(path.child('port'), port, `port is not valid: ${portErrs.join(', ')}`));
  }
  const urlPath = setString(service, 'path');
  if (urlPath === undefined || urlPath === '/' || urlPath === '') return errs;
  const pathField = path.child('path');
  if (urlPath === '//')
    return [...errs, fieldErrors.invalid(pathField, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(fieldErrors.invalid(pathField, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(fieldErrors.invalid(pathField, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) {
      errs.push(fieldErrors.invalid(pathField, urlPath, `segment[${i}]: ${failure}`));
    }
  });
  return errs;
}

/** Upstream validateValidatingWebhook / validateMutatingWebhook. */
function validateWebhook(
  kind: WebhookKind,
  hook: JsonObject,
  opts: WebhookValidationOptions,
  path: FieldPath,
): FieldError[] {
  const errs = validateFullyQualifiedName(str(hook, 'name') ?? '', path.child('name'));
  for (const [i, rule] of indexedObjs(hook, 'rules')) {
    errs.push(...validateRuleWithOperations(rule, path.child('rules').index(i)));
  }
  const failurePolicy = setString(hook, 'failurePolicy');
  if (failurePolicy !== undefined && !supportedFailurePolicies.includes(failurePolicy)) {
    errs.push(fieldErrors.notSupported(path.child('failurePolicy'), failurePolicy, supportedFailurePolicies));
  }
  const matchPolicy = setString(hook, 'matchPolicy');
  if (matchPolicy !== undefined && !supportedMatchPolicies.includes(matchPolicy)) {
    errs.push(fieldErrors.notSupported(path.child('matchPolicy'), matchPolicy, supportedMatchPolicies));
  }
  const allowedSideEffects = opts.requireNoSideEffects ? noSideEffectClasses : supportedSideEffectClasses;
  const sideEffects = setString(hook, 'sideEffects');
  if (sideEffects === undefined) {
    errs.push(
      fieldErrors.required(path.child('sideEffects'), `must specify one of ${allowedSideEffects.join(', ')}`),
    );
  } else if (!allowedSideEffects.includes(sideEffects)) {
    errs.push(fieldErrors.notSupported(path.child('sideEffects'), sideEffects, allowedSideEffects));
  }
  const timeout = num(hook, 'timeoutSeconds');
  if (timeout !== undefined && (timeout > 30 || timeout < 1)) {
    errs.push(
      fieldErrors.invalid(
        path.child('timeoutSeconds'),
        timeout,
        'the timeout value must be between 1 and 30 seconds',
      ),
    );
  }
  const selectorOpts = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector };
  errs.push(...validateSelector(hook, 'namespaceSelector', path.child('namespaceSelector'), selectorOpts));
  errs.push(...validateSelector(hook, 'objectSelector', path.child('objectSelector'), selectorOpts));
  if (kind === 'mutating') {
    const reinvocation = setString(hook, 'reinvocationPolicy');
    if (reinvocation !== undefined && !supportedReinvocationPolicies.includes(reinvocation)) {
      errs.push(
        fieldErrors.notSupported(
          path.child('reinvocationPolicy'),
          reinvocation,
          supportedReinvocationPolicies,
        ),
      );
    }
  }
  const cc = obj(hook, 'clientConfig');
  const url = setString(cc, 'url');
  const service = obj(cc, 'service');
  const ccPath = path.child('clientConfig');
  if ((url === undefined) === (service === undefined)) {
    errs.push(fieldErrors.required(ccPath, 'exactly one of url or service is required'));
  } else if (url !== undefined) {
    errs.push(...validateWebhookURL(url, ccPath.child('url')));
  } else if (service !== undefined) {
    errs.push(...validateWebhookService(service, ccPath.child('service')));
  }
  if (!opts.ignoreMatchConditions) {
    errs.push(...validateMatchConditions(hook, path.child('matchConditions'), opts.compile));
  }
  return errs;
}

/** Upstream validateAdmissionReviewVersions. */
function validateAdmissionReviewVersions(
  hook: JsonObject,
  requireRecognized: boolean,
  path: FieldPath,
): FieldError[] {
  const versions = strArr(hook, 'admissionReviewVersions');
  if (versions.length === 0) {
    return [fieldErrors.required(path, `must specify one of ${acceptedAdmissionReviewVersions.join(', ')}`)];
  }
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasAccepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldErrors.invalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(fieldErrors.invalid(path.index(i), v, msg));
    if (acceptedAdmissionReviewVersions.includes(v)) hasAccepted = true;
  });
  if (requireRecognized && !hasAccepted) {
    errs.push(
      invalidRendered(
        path,
        goStringSlice(versions),
        `must include at least one of ${acceptedAdmissionReviewVersions.join(', ')}`,
      ),
    );
  }
  return errs;
}

function validateConfiguration(
  kind: WebhookKind,
  config: KubeObject,
  opts: WebhookValidationOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [i, hook] of indexedObjs(config, 'webhooks')) {
    const path = FieldPath.root('webhooks').index(i);
    errs.push(...validateWebhook(kind, hook, opts, path));
    errs.push(
      ...validateAdmissionReviewVersions(
        hook,
        opts.requireRecognizedAdmissionReviewVersion,
        path.child('admissionReviewVersions'),
      ),
    );
    const name = str(hook, 'name') ?? '';
    if (opts.requireUniqueWebhookNames && name !== '') {
      if (names.has(name)) errs.push(fieldErrors.duplicate(path.child('name'), name));
      else names.add(name);
    }
  }
  return errs;
}

/** Upstream ValidateValidatingWebhookConfiguration / ValidateMutatingWebhookConfiguration. */
export function validateWebhookConfiguration(
  kind: WebhookKind,
  config: KubeObject,
  compile?: ExpressionCompiler,
): FieldError[] {
  return validateConfiguration(kind, config, {
    ...createOptions,
    ...(compile !== undefined ? { compile } : {}),
  });
}

/**
 * Upstream Validate*WebhookConfigurationUpdate: rules the stored object already breaks (side
 * effects, unknown review versions, duplicate names, bad selector values) stay tolerated, and
 * unchanged match conditions are not checked again.
 */
export function validateWebhookConfigurationUpdate(
  kind: WebhookKind,
  config: KubeObject,
  old: KubeObject,
  compile?: ExpressionCompiler,
): FieldError[] {
  const hooks = objArr(config, 'webhooks');
  const oldHooks = objArr(old, 'webhooks');
  const sameMatchConditions =
    hooks.length === oldHooks.length &&
    oldHooks.every((h, i) => jsonEqual(h['matchConditions'], hooks[i]?.['matchConditions']));
  const noSideEffects = oldHooks.every((h) =>
    noSideEffectClasses.includes(setString(h, 'sideEffects') ?? '-'),
  );
  const acceptedVersions = oldHooks.every((h) => {
    const versions = strArr(h, 'admissionReviewVersions');
    return versions.length === 0 || versions.some((v) => acceptedAdmissionReviewVersions.includes(v));
  });
  const oldNames = oldHooks.map((h) => str(h, 'name') ?? '');
  const uniqueNames = new Set(oldNames).size === oldNames.length;
  const invalidLabelValue = oldHooks.some(
    (h) => hasInvalidLabelValue(h, 'namespaceSelector') || hasInvalidLabelValue(h, 'objectSelector'),
  );
  return validateConfiguration(kind, config, {
    ignoreMatchConditions: sameMatchConditions,
    requireNoSideEffects: noSideEffects,
    requireRecognizedAdmissionReviewVersion: acceptedVersions,
    requireUniqueWebhookNames: uniqueNames,
    allowInvalidLabelValueInSelector: invalidLabelValue,
    ...(compile !== undefined ? { compile } : {}),
  });
}

/** True when any webhook of the object has match conditions (upstream matchConditionsInUse*). */
export function matchConditionsInUse(config: KubeObject | undefined): boolean {
  return objArr(config, 'webhooks').some((h) => {
    const mc = h['matchConditions'];
    return Array.isArray(mc) && mc.length > 0;
  });
}

/**
 * Upstream DropDisabled*WebhookConfigurationFields: without the AdmissionWebhookMatchConditions
 * gate, match conditions are dropped unless the stored object already uses them.
 */
export function dropDisabledWebhookFields(
  gateOn: boolean,
  config: KubeObject,
  old: KubeObject | undefined,
): void {
  if (gateOn || matchConditionsInUse(old)) return;
  for (const hook of objArr(config, 'webhooks')) delete hook['matchConditions'];
}
