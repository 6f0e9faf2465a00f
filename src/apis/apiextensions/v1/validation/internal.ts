/**
 * The parts of upstream's internal (hub) CustomResourceDefinitionSpec that validation looks at, as
 * v1 JSON converts to it (Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_…): when every
 * version carries the same schema (subresources, printer columns), the value moves to the
 * top-level `validation` (`subresources`, `additionalPrinterColumns`) and leaves the versions. Error
 * paths follow the internal shape, as kube-apiserver's messages do.
 */
import { jsonEqual } from '../../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';
import { obj, objArr, str, strArr } from '../../../core/v1/access.js';

export interface InternalVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly deprecated: boolean;
  readonly deprecationWarning: string | undefined;
  /** The version's CustomResourceValidation, unless it moved to the top level. */
  readonly schema: JsonObject | undefined;
  readonly subresources: JsonObject | undefined;
  readonly columns: readonly JsonObject[] | undefined;
}

export interface InternalConversion {
  readonly strategy: string;
  readonly webhookClientConfig: JsonObject | undefined;
  /** undefined: nil in Go (no webhook, or a webhook without the field). */
  readonly conversionReviewVersions: readonly string[] | undefined;
}

export interface InternalSpec {
  readonly group: string;
  readonly scope: string;
  readonly names: JsonObject;
  /** undefined when v1 `versions` is absent (a nil slice); [] when given empty. */
  readonly versions: readonly InternalVersion[] | undefined;
  readonly validation: JsonObject | undefined;
  readonly subresources: JsonObject | undefined;
  readonly columns: readonly JsonObject[] | undefined;
  readonly conversion: InternalConversion | undefined;
  /** v1's bool becomes a non-nil *bool. */
  readonly preserveUnknownFields: boolean;
}

/** apiequality.Semantic.DeepEqual on the optional values: nil and empty slices are equal. */
function semanticEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const norm = (v: JsonValue | undefined): JsonValue | undefined =>
    Array.isArray(v) && v.length === 0 ? undefined : v;
  return jsonEqual(norm(a), norm(b));
}

function allIdentical(versions: readonly JsonObject[], key: string): boolean {
  const first = versions[0]?.[key];
  return versions.every((v) => semanticEqual(v[key], first));
}

export function toInternalSpec(spec: JsonObject | undefined): InternalSpec {
  const raw = spec?.['versions'];
  const v1Versions = objArr(spec, 'versions');
  const hoist = v1Versions.length > 0;
  const schemaHoisted = hoist && allIdentical(v1Versions, 'schema');
  const subresourcesHoisted = hoist && allIdentical(v1Versions, 'subresources');
  const columnsHoisted = hoist && allIdentical(v1Versions, 'additionalPrinterColumns');
  const versions = Array.isArray(raw)
    ? v1Versions.map((v): InternalVersion => ({
        name: str(v, 'name') ?? '',
        served: v['served'] === true,
        storage: v['storage'] === true,
        deprecated: v['deprecated'] === true,
        deprecationWarning: str(v, 'deprecationWarning'),
        schema: schemaHoisted ? undefined : obj(v, 'schema'),
        subresources: subresourcesHoisted ? undefined : obj(v, 'subresources'),
        columns:
          columnsHoisted || !Array.isArray(v['additionalPrinterColumns'])
            ? undefined
            : objArr(v, 'additionalPrinterColumns'),
      }))
    : undefined;
  const first = v1Versions[0];
  const conversion = obj(spec, 'conversion');
  const webhook = obj(conversion, 'webhook');
  return {
    group: str(spec, 'group') ?? '',
    scope: str(spec, 'scope') ?? '',
    names: obj(spec, 'names') ?? {},
    versions,
    validation: schemaHoisted ? obj(first, 'schema') : undefined,
    subresources: subresourcesHoisted ? obj(first, 'subresources') : undefined,
    columns:
      columnsHoisted && Array.isArray(first?.['additionalPrinterColumns'])
        ? objArr(first, 'additionalPrinterColumns')
        : undefined,
    conversion:
      conversion === undefined
        ? undefined
        : {
            strategy: str(conversion, 'strategy') ?? '',
            webhookClientConfig: obj(webhook, 'clientConfig'),
            conversionReviewVersions: Array.isArray(webhook?.['conversionReviewVersions'])
              ? strArr(webhook, 'conversionReviewVersions')
              : undefined,
          },
    preserveUnknownFields: spec?.['preserveUnknownFields'] === true,
  };
}

// ---- Go %#v renderings of the internal values some messages carry ----

const fakePointer = '0xc000010000';

function goStr(v: string): string {
  return JSON.stringify(v);
}

function goPtr(type: string, present: boolean): string {
  return `(*${type})(${present ? fakePointer : 'nil'})`;
}

function goInt(v: JsonValue | undefined): string {
  return typeof v === 'number' ? String(v) : '0';
}

function goColumn(c: JsonObject): string {
  return (
    `apiextensions.CustomResourceColumnDefinition{Name:${goStr(str(c, 'name') ?? '')}, ` +
    `Type:${goStr(str(c, 'type') ?? '')}, Format:${goStr(str(c, 'format') ?? '')}, ` +
    `Description:${goStr(str(c, 'description') ?? '')}, Priority:${goInt(c['priority'])}, ` +
    `JSONPath:${goStr(str(c, 'jsonPath') ?? '')}}`
  );
}

/** `apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, …}` (pointers are fake). */
export function goVersion(v: InternalVersion): string {
  const columns =
    v.columns === undefined
      ? '[]apiextensions.CustomResourceColumnDefinition(nil)'
      : `[]apiextensions.CustomResourceColumnDefinition{${v.columns.map(goColumn).join(', ')}}`;
  return (
    `apiextensions.CustomResourceDefinitionVersion{Name:${goStr(v.name)}, Served:${v.served}, ` +
    `Storage:${v.storage}, Deprecated:${v.deprecated}, ` +
    `DeprecationWarning:${goPtr('string', v.deprecationWarning !== undefined)}, ` +
    `Schema:${goPtr('apiextensions.CustomResourceValidation', v.schema !== undefined)}, ` +
    `Subresources:${goPtr('apiextensions.CustomResourceSubresources', v.subresources !== undefined)}, ` +
    `AdditionalPrinterColumns:${columns}}`
  );
}

export function goVersions(versions: readonly InternalVersion[] | undefined): string {
  if (versions === undefined) return '[]apiextensions.CustomResourceDefinitionVersion(nil)';
  return `[]apiextensions.CustomResourceDefinitionVersion{${versions.map(goVersion).join(', ')}}`;
}
