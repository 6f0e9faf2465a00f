/**
 * The variables of one admission evaluation (apiserver v0.27 pkg/admission/plugin/cel/filter.go
 * ForInput and CreateAdmissionRequest): `object`, `oldObject` and `params` as untyped data (JSON
 * integers become CEL ints, other numbers doubles), `request` as an AdmissionRequest with
 * upstream's omitempty fields left out, and the authorizer variables bound to the request's user.
 * Built once per request and policy version and shared by every expression evaluated for it.
 */
import type { CelInput } from '@bufbuild/cel';
import { requestResourceCheckValue, type CelAuthorizer } from '../library/authz.js';
import {
  OBJECT_VAR,
  OLD_OBJECT_VAR,
  PARAMS_VAR,
  REQUEST_RESOURCE_AUTHORIZER_VAR,
  REQUEST_VAR,
} from './environment.js';
import {
  requestedResource,
  type AdmissionAttributes,
  type GroupVersionKind,
  type GroupVersionResource,
} from '../../machinery/admission-attributes.js';

/** JSON data as CEL sees it without a schema (unstructured values). */
export function jsonToCel(value: unknown): CelInput {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) && Number.isSafeInteger(value) ? BigInt(value) : value;
    case 'string':
    case 'boolean':
    case 'bigint':
      return value;
    case 'object': {
      if (Array.isArray(value)) return value.map(jsonToCel);
      const out: Record<string, CelInput> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v !== undefined) out[k] = jsonToCel(v);
      }
      return out;
    }
    default:
      return null;
  }
}

const optionsKinds: Readonly<Record<AdmissionAttributes['operation'], string>> = {
  CREATE: 'CreateOptions',
  UPDATE: 'UpdateOptions',
  DELETE: 'DeleteOptions',
  CONNECT: '',
};

/** The operation's options object as admission sees it (apiVersion meta.k8s.io/v1). */
export function operationOptions(a: AdmissionAttributes): Record<string, unknown> | undefined {
  if (a.operation === 'CONNECT') {
    const kind = a.object?.kind;
    return kind === undefined ? undefined : { kind, apiVersion: a.object?.apiVersion ?? 'v1' };
  }
  const options: Record<string, unknown> = { kind: optionsKinds[a.operation], apiVersion: 'meta.k8s.io/v1' };
  if (a.dryRun) options['dryRun'] = ['All'];
  return options;
}

/**
 * CreateAdmissionRequest as JSON: `kind`/`resource` as the policy matched them (an equivalent
 * version under matchPolicy Equivalent), `requestKind`/`requestResource` as the request made them.
 */
export function admissionRequestJson(
  a: AdmissionAttributes,
  matched?: { readonly kind: GroupVersionKind; readonly resource: GroupVersionResource },
): Record<string, unknown> {
  const { kind: requestKind, resource: requestResource } = requestedResource(a);
  const user: Record<string, unknown> = {};
  if (a.user.name !== '') user['username'] = a.user.name;
  if (a.user.uid !== '') user['uid'] = a.user.uid;
  if (a.user.groups.length > 0) user['groups'] = [...a.user.groups];
  const extra = Object.entries(a.user.extra ?? {});
  if (extra.length > 0) user['extra'] = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
  const request: Record<string, unknown> = {
    kind: matched?.kind ?? requestKind,
    resource: matched?.resource ?? requestResource,
    requestKind,
    requestResource,
    operation: a.operation,
    userInfo: user,
    dryRun: a.dryRun,
  };
  if (a.subresource !== '') {
    request['subResource'] = a.subresource;
    request['requestSubResource'] = a.subresource;
  }
  if (a.name !== '') request['name'] = a.name;
  if (a.namespace !== '') request['namespace'] = a.namespace;
  const options = operationOptions(a);
  if (options !== undefined) request['options'] = options;
  return request;
}

/**
 * The same activation with other params (a policy's bindings share the object and request, and
 * differ only in their param), converted once per param.
 */
export function withParams(base: AdmissionActivation, params: unknown): AdmissionActivation {
  return { ...base, bindings: { ...base.bindings, [PARAMS_VAR]: jsonToCel(params) } };
}

/** The bindings of one evaluation, converted once. */
export interface AdmissionActivation {
  readonly bindings: Readonly<Record<string, CelInput>>;
  /** Answers `authorizer` checks as the request's user. */
  readonly authorizer?: CelAuthorizer;
}

export function admissionActivation(input: {
  readonly attributes: AdmissionAttributes;
  /** The object and old object at the version matched (default: the attributes' own). */
  readonly object?: unknown;
  readonly oldObject?: unknown;
  readonly params?: unknown;
  readonly request: Record<string, unknown>;
  readonly authorizer?: CelAuthorizer;
}): AdmissionActivation {
  const a = input.attributes;
  const bindings: Record<string, CelInput> = {
    [OBJECT_VAR]: jsonToCel('object' in input ? input.object : a.object),
    [OLD_OBJECT_VAR]: jsonToCel('oldObject' in input ? input.oldObject : a.oldObject),
    [REQUEST_VAR]: jsonToCel(input.request),
    [PARAMS_VAR]: jsonToCel(input.params),
  };
  if (input.authorizer === undefined) return { bindings };
  bindings[REQUEST_RESOURCE_AUTHORIZER_VAR] = requestResourceCheckValue({
    group: a.resource.group,
    resource: a.resource.resource,
    subresource: a.subresource,
    namespace: a.namespace,
    name: a.name,
  });
  return { bindings, authorizer: input.authorizer };
}
