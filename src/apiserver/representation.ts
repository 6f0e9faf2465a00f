/** Alternative representations of objects and lists: meta.k8s.io Table and PartialObjectMetadata. */
import type { ResourceInfo } from '../apis/resource.js';
import { apiVersionOf } from '../apis/resource.js';
import type { KubeObject, ListMeta } from '../machinery/object.js';
import type { TableConvertor } from '../machinery/table.js';
import { defaultTable } from '../registry/printers/default.js';
import type { JsonObject, JsonValue } from '../util/json.js';
import type { Negotiated } from './negotiate.js';

/** An object as meta.k8s.io's PartialObjectMetadata of `asVersion` (v1 or v1beta1). */
export function partialMetadata(obj: KubeObject, asVersion: string): JsonObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${asVersion}`, metadata: obj.metadata };
}

export interface TableOptions {
  readonly convertor: TableConvertor | undefined;
  /** `includeObject`: None, Metadata (default) or Object. */
  readonly includeObject: string;
  readonly noHeaders: boolean;
}

export function toTable(
  objects: readonly KubeObject[],
  listMeta: ListMeta,
  negotiated: Negotiated,
  options: TableOptions,
  now = new Date(),
): JsonObject {
  const convertor = options.convertor ?? defaultTable;
  const rows: JsonValue[] = objects.map((obj) => {
    const row: JsonObject = { cells: convertor.cells(obj, now) };
    if (options.includeObject === 'Object') row['object'] = obj;
    else if (options.includeObject !== 'None') row['object'] = partialMetadata(obj, negotiated.asVersion);
    return row;
  });
  const table: JsonObject = {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${negotiated.asVersion}`,
    metadata: listMeta,
  };
  table['columnDefinitions'] = options.noHeaders ? null : convertor.columns.map((c) => ({ ...c }));
  table['rows'] = rows;
  return table;
}

/** The response body of a get/create/update for the negotiated representation. */
export function representObject(
  obj: KubeObject,
  negotiated: Negotiated,
  table: Omit<TableOptions, 'noHeaders'>,
): JsonObject {
  if (negotiated.as === 'table') {
    const meta: ListMeta = {};
    if (obj.metadata.resourceVersion !== undefined) meta.resourceVersion = obj.metadata.resourceVersion;
    return toTable([obj], meta, negotiated, { ...table, noHeaders: false });
  }
  if (negotiated.as === 'metadata') return partialMetadata(obj, negotiated.asVersion);
  return obj;
}

/**
 * Items of built-in lists carry no apiVersion/kind, as upstream's typed lists encode them (custom
 * resources' lists keep them: see ResourceInfo.unstructured).
 */
function listItem(obj: KubeObject): JsonObject {
  const rest: JsonObject = {};
  for (const k of Object.keys(obj)) if (k !== 'apiVersion' && k !== 'kind') rest[k] = obj[k]!;
  return rest;
}

export function representList(
  info: ResourceInfo,
  items: readonly KubeObject[],
  listMeta: ListMeta,
  negotiated: Negotiated,
  table: Omit<TableOptions, 'noHeaders'>,
): JsonObject {
  if (negotiated.as === 'table') return toTable(items, listMeta, negotiated, { ...table, noHeaders: false });
  if (negotiated.as === 'metadata') {
    return {
      kind: 'PartialObjectMetadataList',
      apiVersion: `meta.k8s.io/${negotiated.asVersion}`,
      metadata: listMeta,
      items: items.map((o) => partialMetadata(o, negotiated.asVersion)),
    };
  }
  return {
    kind: `${info.kind}List`,
    apiVersion: apiVersionOf(info),
    metadata: listMeta,
    items: info.unstructured === true ? [...items] : items.map(listItem),
  };
}
