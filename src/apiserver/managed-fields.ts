/**
 * Server-side apply and managedFields at the handlers: the field manager of each endpoint
 * (its kind's type at the endpoint's version, the strategy's reset fields, the resource's other
 * versions for managers recorded there), the manager name of a write (`fieldManager`, else the
 * user agent's prefix, as upstream's managerOrUserAgent) and the checks of the options that carry
 * them (upstream's ValidateFieldManager and ValidatePatchOptions).
 */
import type { ResourceInfo } from '../apis/resource.js';
import { apiVersionOf } from '../apis/resource.js';
import type { SchemaRegistry } from '../apis/schema/types.js';
import { apiErrors } from '../machinery/errors.js';
import { fieldElement } from '../machinery/fieldpath/path-element.js';
import { FieldSet } from '../machinery/fieldpath/set.js';
import { fieldErrors } from '../machinery/field/errors.js';
import type { FieldError } from '../machinery/field/errors.js';
import { FieldManager } from '../machinery/managedfields/field-manager.js';
import type { KubeObject } from '../machinery/object.js';
import { TypeModel } from '../machinery/typed/atom.js';
import type { HandlerContext } from './endpoint.js';

/** Upstream's FieldManagerMaxLength. */
const fieldManagerMaxLength = 128;

const models = new WeakMap<SchemaRegistry, TypeModel>();
const managers = new WeakMap<object, Map<string, FieldManager>>();

/** Reset fields (rest.ResetFieldsStrategy) of the resource and of its status subresource. */
interface ResetFields {
  readonly main: readonly string[];
  readonly status?: readonly string[];
}
const statusOnly: ResetFields = { main: ['status'], status: ['spec'] };
const resetFieldsByResource: Readonly<Record<string, ResetFields>> = {
  '/pods': { main: ['status'], status: ['spec', 'metadata.deletionTimestamp', 'metadata.ownerReferences'] },
  '/nodes': statusOnly,
  '/namespaces': statusOnly,
  '/services': statusOnly,
  '/persistentvolumes': statusOnly,
  '/persistentvolumeclaims': statusOnly,
  '/replicationcontrollers': statusOnly,
  '/resourcequotas': statusOnly,
  'apps/deployments': { main: ['status'], status: ['spec', 'metadata.labels'] },
  'apps/replicasets': statusOnly,
  'apps/statefulsets': statusOnly,
  'apps/daemonsets': statusOnly,
  'batch/jobs': statusOnly,
  'batch/cronjobs': statusOnly,
  'autoscaling/horizontalpodautoscalers': statusOnly,
  'networking.k8s.io/ingresses': statusOnly,
  'networking.k8s.io/networkpolicies': statusOnly,
  'policy/poddisruptionbudgets': statusOnly,
  'certificates.k8s.io/certificatesigningrequests': {
    main: ['spec', 'status'],
    status: ['spec', 'status.conditions'],
  },
  'storage.k8s.io/volumeattachments': { main: ['status'], status: ['metadata', 'spec'] },
  'flowcontrol.apiserver.k8s.io/flowschemas': { main: ['status'], status: ['metadata', 'spec'] },
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': {
    main: ['status'],
    status: ['metadata', 'spec'],
  },
  'admissionregistration.k8s.io/validatingadmissionpolicies': {
    main: ['status'],
    status: ['metadata', 'spec'],
  },
  'resource.k8s.io/resourceclaims': statusOnly,
  'resource.k8s.io/podschedulingcontexts': statusOnly,
  'apiextensions.k8s.io/customresourcedefinitions': { main: ['status'], status: ['metadata', 'spec'] },
  'apiregistration.k8s.io/apiservices': { main: ['status'], status: ['metadata', 'spec'] },
};

function resetFieldsOf(info: ResourceInfo, subresource: string): FieldSet | undefined {
  const r = resetFieldsByResource[`${info.group}/${info.resource}`] ?? info.resetFields;
  const paths = subresource === '' ? r?.main : subresource === 'status' ? r?.status : undefined;
  if (paths === undefined) return undefined;
  return FieldSet.of(...paths.map((p) => p.split('.').map(fieldElement)));
}

function modelOf(schemas: SchemaRegistry): TypeModel {
  let m = models.get(schemas);
  if (m === undefined) {
    m = new TypeModel(schemas);
    models.set(schemas, m);
  }
  return m;
}

/** The field manager of the request's endpoint (its subresource, if any). */
export function fieldManagerFor(ctx: HandlerContext): FieldManager {
  const { store, info } = ctx.endpoint;
  const sub = ctx.request.subresource;
  let byEndpoint = managers.get(store);
  if (byEndpoint === undefined) {
    byEndpoint = new Map();
    managers.set(store, byEndpoint);
  }
  let fm = byEndpoint.get(sub);
  if (fm === undefined) {
    const model = modelOf(ctx.schemas);
    const served = store.resource.servedVersions ?? [];
    fm = new FieldManager({
      model,
      definition: info.definition,
      apiVersion: apiVersionOf(info),
      kind: info.kind,
      subresource: sub,
      resetFields: resetFieldsOf(info, sub),
      versionOf: (apiVersion) => {
        const other = served.find((v) => apiVersionOf(v.info) === apiVersion);
        const atom = other === undefined ? undefined : model.definition(other.info.definition);
        if (other === undefined || atom === undefined) return undefined;
        return { atom, convert: (obj) => other.fromStorage(store.in(obj as KubeObject)) };
      },
    });
    byEndpoint.set(sub, fm);
  }
  return fm;
}

/** Manager names of the user agents seen lately (a server meets few; kept up to 1,000). */
const agentManagers = new Map<string, string>();

/** The `fieldManager` parameter, else the user agent up to its first "/" (printable, 128 bytes). */
export function managerOrUserAgent(ctx: HandlerContext): string {
  const given = ctx.url.searchParams.get('fieldManager') ?? '';
  if (given !== '') return given;
  const agent = ctx.req.headers['user-agent'] ?? '';
  let name = agentManagers.get(agent);
  if (name === undefined) {
    name = agentManager(agent);
    if (agentManagers.size >= 1000) agentManagers.clear();
    agentManagers.set(agent, name);
  }
  return name;
}

function agentManager(agent: string): string {
  const ua = agent.split('/')[0] ?? '';
  let out = '';
  for (const ch of ua) {
    if (!isPrint(ch)) continue;
    if (Buffer.byteLength(out + ch) > fieldManagerMaxLength) break;
    out += ch;
  }
  return out;
}

/** Go's unicode.IsPrint, near enough: letters, marks, numbers, punctuation, symbols and ASCII space. */
function isPrint(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

function validateFieldManager(value: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(value) > fieldManagerMaxLength) {
    errs.push(fieldErrors.tooLong('fieldManager', value, fieldManagerMaxLength));
  }
  let i = 0;
  for (const ch of value) {
    if (!isPrint(ch)) {
      const cp = ch.codePointAt(0)!;
      const u = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
      errs.push(fieldErrors.invalid('fieldManager', value, `invalid character ${u} (at position ${i})`));
    }
    i += Buffer.byteLength(ch);
  }
  return errs;
}

/**
 * The field manager options of a write (422 on CreateOptions/UpdateOptions/PatchOptions as
 * upstream): `force` only for apply, `fieldManager` required for apply, at most 128 printable bytes.
 */
export function checkFieldManagerOptions(
  ctx: HandlerContext,
  options: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  apply = false,
): void {
  const errs: FieldError[] = [];
  const url = ctx.url;
  const manager = url.searchParams.get('fieldManager') ?? '';
  if (options === 'PatchOptions') {
    if (!apply && url.searchParams.has('force')) {
      errs.push(fieldErrors.forbidden('force', 'may not be specified for non-apply patch'));
    }
    if (apply && manager === '')
      errs.push(fieldErrors.required('fieldManager', 'is required for apply patch'));
  }
  errs.push(...validateFieldManager(manager));
  if (errs.length > 0) throw apiErrors.invalid({ group: 'meta.k8s.io', kind: options }, '', errs);
}

/** The `force` parameter of an apply (Go's strconv.ParseBool). */
export function forceOf(url: URL): boolean {
  const v = url.searchParams.get('force');
  if (v === null) return false;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  throw apiErrors.badRequest(`strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}
