/**
 * A typed read of a stored apiextensions.k8s.io/v1 CustomResourceDefinition (JSON as the registry
 * keeps it): what serving its custom resources needs. The CRD was validated on write, so missing
 * pieces read as upstream's zero values rather than failing.
 */
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';

export interface CrdNames {
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
}

export interface CrdColumn {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
  readonly jsonPath: string;
}

export interface CrdScale {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

export interface CrdVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly deprecated: boolean;
  readonly deprecationWarning?: string;
  /** `schema.openAPIV3Schema`, when given. */
  readonly schema?: JsonObject;
  readonly status: boolean;
  readonly scale?: CrdScale;
  readonly columns: readonly CrdColumn[];
}

export interface CrdView {
  readonly name: string;
  readonly uid: string;
  readonly group: string;
  readonly namespaced: boolean;
  /** spec.names (what the CRD asks for). */
  readonly names: CrdNames;
  /** status.acceptedNames (what is served); empty kind until the naming controller accepted them. */
  readonly acceptedNames: CrdNames;
  readonly versions: readonly CrdVersion[];
  readonly conversion: { readonly strategy: string; readonly webhook?: JsonObject };
  readonly preserveUnknownFields: boolean;
  readonly storedVersions: readonly string[];
  readonly deleting: boolean;
}

const str = (o: JsonObject | undefined, k: string): string => {
  const v = o?.[k];
  return typeof v === 'string' ? v : '';
};
const obj = (o: JsonObject | undefined, k: string): JsonObject | undefined => {
  const v = o?.[k];
  return isJsonObject(v) ? v : undefined;
};
const strings = (v: JsonValue | undefined): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];

function namesOf(o: JsonObject | undefined): CrdNames {
  return {
    plural: str(o, 'plural'),
    singular: str(o, 'singular'),
    kind: str(o, 'kind'),
    listKind: str(o, 'listKind'),
    shortNames: strings(o?.['shortNames']),
    categories: strings(o?.['categories']),
  };
}

function columnsOf(v: JsonValue | undefined): CrdColumn[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isJsonObject).map((c) => ({
    name: str(c, 'name'),
    type: str(c, 'type'),
    format: str(c, 'format'),
    description: str(c, 'description'),
    priority: typeof c['priority'] === 'number' ? c['priority'] : 0,
    jsonPath: str(c, 'jsonPath'),
  }));
}

function versionOf(v: JsonObject): CrdVersion {
  const sub = obj(v, 'subresources');
  const scale = obj(sub, 'scale');
  const schema = obj(obj(v, 'schema'), 'openAPIV3Schema');
  const warning = v['deprecationWarning'];
  return {
    name: str(v, 'name'),
    served: v['served'] === true,
    storage: v['storage'] === true,
    deprecated: v['deprecated'] === true,
    ...(typeof warning === 'string' ? { deprecationWarning: warning } : {}),
    ...(schema !== undefined ? { schema } : {}),
    status: obj(sub, 'status') !== undefined,
    ...(scale !== undefined
      ? {
          scale: {
            specReplicasPath: str(scale, 'specReplicasPath'),
            statusReplicasPath: str(scale, 'statusReplicasPath'),
            ...(typeof scale['labelSelectorPath'] === 'string'
              ? { labelSelectorPath: scale['labelSelectorPath'] }
              : {}),
          },
        }
      : {}),
    columns: columnsOf(v['additionalPrinterColumns']),
  };
}

export function crdView(crd: KubeObject): CrdView {
  const spec = obj(crd, 'spec');
  const status = obj(crd, 'status');
  const conversion = obj(spec, 'conversion');
  const webhook = obj(conversion, 'webhook');
  const versions = Array.isArray(spec?.['versions']) ? spec['versions'].filter(isJsonObject) : [];
  return {
    name: crd.metadata.name ?? '',
    uid: crd.metadata.uid ?? '',
    group: str(spec, 'group'),
    namespaced: str(spec, 'scope') !== 'Cluster',
    names: namesOf(obj(spec, 'names')),
    acceptedNames: namesOf(obj(status, 'acceptedNames')),
    versions: versions.map(versionOf),
    conversion: {
      strategy: str(conversion, 'strategy') || 'None',
      ...(webhook !== undefined ? { webhook } : {}),
    },
    preserveUnknownFields: spec?.['preserveUnknownFields'] === true,
    storedVersions: strings(status?.['storedVersions']),
    deleting: crd.metadata.deletionTimestamp !== undefined && crd.metadata.deletionTimestamp !== null,
  };
}

/** Whether the CRD has a condition of this type with status "True". */
export function crdConditionTrue(crd: KubeObject, type: string): boolean {
  const conditions = obj(crd, 'status')?.['conditions'];
  if (!Array.isArray(conditions)) return false;
  return conditions.some((c) => isJsonObject(c) && c['type'] === type && c['status'] === 'True');
}

/** The storage version's name ('' when none is marked, which validation forbids). */
export function storageVersionName(view: CrdView): string {
  return view.versions.find((v) => v.storage)?.name ?? '';
}
