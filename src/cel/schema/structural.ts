/**
 * Read access to an OpenAPI v3 schema node as a CRD gives it (`openAPIV3Schema` and its
 * descendants, plain JSON), with the questions pkg/cel/common.Schema asks. Malformed nodes read
 * as absent values rather than throwing: the CRD's own validation reports them.
 */

export type JsonSchema = Readonly<Record<string, unknown>>;

function isRecord(v: unknown): v is JsonSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function asSchema(v: unknown): JsonSchema | undefined {
  return isRecord(v) ? v : undefined;
}

export function schemaType(s: JsonSchema): string {
  return typeof s['type'] === 'string' ? s['type'] : '';
}

export function schemaFormat(s: JsonSchema): string {
  return typeof s['format'] === 'string' ? s['format'] : '';
}

export function schemaItems(s: JsonSchema): JsonSchema | undefined {
  return asSchema(s['items']);
}

export function schemaProperties(s: JsonSchema): ReadonlyMap<string, JsonSchema> | undefined {
  const props = s['properties'];
  if (!isRecord(props)) return undefined;
  const out = new Map<string, JsonSchema>();
  for (const [k, v] of Object.entries(props)) {
    const schema = asSchema(v);
    if (schema !== undefined) out.set(k, schema);
  }
  return out;
}

/** additionalProperties when it is a schema (a bare `true`/`false` has none). */
export function schemaAdditionalProperties(s: JsonSchema): JsonSchema | undefined {
  return asSchema(s['additionalProperties']);
}

function int64(v: unknown): bigint | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'bigint') return v;
  return undefined;
}

export function schemaMaxItems(s: JsonSchema): bigint | undefined {
  return int64(s['maxItems']);
}
export function schemaMaxLength(s: JsonSchema): bigint | undefined {
  return int64(s['maxLength']);
}
export function schemaMaxProperties(s: JsonSchema): bigint | undefined {
  return int64(s['maxProperties']);
}

export function schemaRequired(s: JsonSchema): readonly string[] {
  const r = s['required'];
  return Array.isArray(r) ? r.filter((x): x is string => typeof x === 'string') : [];
}

export function schemaEnum(s: JsonSchema): readonly unknown[] | undefined {
  const e = s['enum'];
  return Array.isArray(e) ? e : undefined;
}

export function schemaDefault(s: JsonSchema): unknown {
  return s['default'];
}

function flag(s: JsonSchema, name: string): boolean {
  return s[name] === true;
}
export const isNullable = (s: JsonSchema): boolean => flag(s, 'nullable');
export const isIntOrString = (s: JsonSchema): boolean => flag(s, 'x-kubernetes-int-or-string');
export const isEmbeddedResource = (s: JsonSchema): boolean => flag(s, 'x-kubernetes-embedded-resource');
export const isPreserveUnknownFields = (s: JsonSchema): boolean =>
  flag(s, 'x-kubernetes-preserve-unknown-fields');

export function schemaListType(s: JsonSchema): string {
  const t = s['x-kubernetes-list-type'];
  return typeof t === 'string' ? t : '';
}

export function schemaListMapKeys(s: JsonSchema): readonly string[] {
  const k = s['x-kubernetes-list-map-keys'];
  return Array.isArray(k) ? k.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * An embedded resource's schema with `apiVersion`, `kind` and `metadata.name/generateName` as
 * strings added (apiextensions-apiserver model.WithTypeAndObjectMeta), unless all are declared.
 */
export function withTypeAndObjectMeta(s: JsonSchema): JsonSchema {
  const props = schemaProperties(s);
  const meta = props?.get('metadata');
  const metaProps = meta === undefined ? undefined : schemaProperties(meta);
  if (
    props !== undefined &&
    schemaType(props.get('kind') ?? {}) === 'string' &&
    schemaType(props.get('apiVersion') ?? {}) === 'string' &&
    meta !== undefined &&
    schemaType(meta) === 'object' &&
    metaProps !== undefined &&
    schemaType(metaProps.get('name') ?? {}) === 'string' &&
    schemaType(metaProps.get('generateName') ?? {}) === 'string'
  ) {
    return s;
  }
  const str = { type: 'string' };
  return {
    ...s,
    properties: {
      ...(isRecord(s['properties']) ? s['properties'] : {}),
      kind: str,
      apiVersion: str,
      metadata: { type: 'object', properties: { name: str, generateName: str } },
    },
  };
}
