/**
 * Decoding EventRateLimit's configuration as upstream's LoadConfiguration does (v1.27): no
 * configuration at all is the defaulted empty one (which validation then refuses); otherwise the
 * object must carry `apiVersion: eventratelimit.admission.k8s.io/v1alpha1` and
 * `kind: Configuration`, and its fields decode as Go's encoding/json would into the v1alpha1
 * types (case-sensitive keys, unknown keys ignored, null as the zero value, int32 numbers), with
 * its error texts.
 */
import { isJsonObject } from '../../util/json.js';
import type { JsonValue } from '../../util/json.js';
import { configurationGroupVersion, configurationKind } from './configuration.js';
import type { Configuration, Limit } from './configuration.js';

const typeMetaStruct =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** The word encoding/json's UnmarshalTypeError uses for a JSON value. */
function jsonKind(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'number') return `number ${JSON.stringify(v)}`;
  return typeof v === 'boolean' ? 'bool' : 'string';
}

function typeError(value: JsonValue, struct: string, field: string, goType: string): Error {
  return new Error(
    `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${struct}.${field} of type ${goType}`,
  );
}

function int32Field(limit: Readonly<Record<string, JsonValue>>, key: string): number {
  const v = limit[key];
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31) return v;
  throw typeError(v, 'Limit', `limits.${key}`, 'int32');
}

function decodeLimit(v: JsonValue): Limit {
  if (v === null) return { type: '', qps: 0, burst: 0, cacheSize: 0 };
  if (!isJsonObject(v)) throw typeError(v, 'Configuration', 'limits', 'v1alpha1.Limit');
  const type = v['type'] ?? null;
  if (type !== null && typeof type !== 'string') {
    throw typeError(type, 'Limit', 'limits.type', 'v1alpha1.LimitType');
  }
  return {
    type: type ?? '',
    qps: int32Field(v, 'qps'),
    burst: int32Field(v, 'burst'),
    cacheSize: int32Field(v, 'cacheSize'),
  };
}

/** Throws an Error with upstream's text when the configuration does not decode. */
export function decodeConfiguration(value: JsonValue | undefined): Configuration {
  if (value === undefined) return { limits: null };
  const data = JSON.stringify(value);
  if (!isJsonObject(value)) {
    throw new Error(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value).split(' ')[0]!} into Go value of type ${typeMetaStruct}`,
    );
  }
  const apiVersion = typeof value['apiVersion'] === 'string' ? value['apiVersion'] : '';
  const kind = typeof value['kind'] === 'string' ? value['kind'] : '';
  if (kind === '') throw new Error(`Object 'Kind' is missing in '${data}'`);
  if (apiVersion === '') throw new Error(`Object 'apiVersion' is missing in '${data}'`);
  if (apiVersion !== configurationGroupVersion || kind !== configurationKind) {
    throw new Error(
      `no kind "${kind}" is registered for version "${apiVersion}" in scheme "k8s.io/kubernetes/plugin/pkg/admission/eventratelimit/config.go"`,
    );
  }
  const limits = value['limits'] ?? null;
  if (limits === null) return { limits: null };
  if (!Array.isArray(limits)) throw typeError(limits, 'Configuration', 'limits', '[]v1alpha1.Limit');
  return { limits: limits.map(decodeLimit) };
}
