/**
 * JSON data as @bufbuild/cel inputs, following apiserver v0.27.16 pkg/cel/common/values.go
 * (UnstructuredToVal): the schema decides each value's CEL type, so an `integer` is a CEL int
 * (bigint) even when JSON wrote it as `1.0`, a `number` is a double, `byte`/`duration`/`date`/
 * `date-time` strings become bytes/duration/timestamp, int-or-string stays an int or a string,
 * objects become maps keyed by their escaped (CEL) property names, and set and map-list arrays
 * keep their own equality and concatenation (keyed-lists.ts).
 */
import { create } from '@bufbuild/protobuf';
import { DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt';
import type { CelInput, CelValue } from '@bufbuild/cel';
import { escapeName } from './escaping.js';
import { keyedList, objectFromData } from './keyed-lists.js';
import {
  type JsonSchema,
  isEmbeddedResource,
  isIntOrString,
  isNullable,
  isPreserveUnknownFields,
  schemaAdditionalProperties,
  schemaFormat,
  schemaItems,
  schemaListMapKeys,
  schemaListType,
  schemaProperties,
  schemaType,
  withTypeAndObjectMeta,
} from './structural.js';

/** Data that does not fit its schema, with upstream's message. */
export class InvalidCelDataError extends Error {
  override readonly name = 'InvalidCelDataError';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  if (isRecord(v)) return 'map[string]interface {}';
  return typeof v;
}

/** Integers as Kubernetes' JSON decoding keeps them (int64); anything else is not an int. */
function asInt64(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return undefined;
}

/** Converts `json` described by `schema` (the schema node of the value). */
export function toCelValue(json: unknown, schema: JsonSchema): CelInput {
  if (json === null || json === undefined) {
    if (isNullable(schema)) return null;
    throw new InvalidCelDataError('invalid data, got null for schema with nullable=false');
  }
  if (isIntOrString(schema)) {
    if (typeof json === 'string') return json;
    const i = asInt64(json);
    if (i !== undefined) return i;
    throw new InvalidCelDataError(
      'invalid data, expected XIntOrString value to be either a string or integer',
    );
  }
  switch (schemaType(schema)) {
    case 'object':
      return objectValue(json, schema);
    case 'array': {
      if (!Array.isArray(json)) {
        throw new InvalidCelDataError(
          'invalid data, expected an array for the provided schema with type=array',
        );
      }
      const items = schemaItems(schema);
      if (items === undefined)
        throw new InvalidCelDataError('invalid array type, expected Items with a non-empty Schema');
      const elements = json.map((item: unknown) => toCelValue(item, items));
      const listType = schemaListType(schema);
      if (listType === 'set' || listType === 'map') {
        const keyProps = schemaListMapKeys(schema).map((k) => escapeName(k) ?? k);
        return keyedList(listType, elements as CelValue[], json, keyProps);
      }
      return elements;
    }
    case 'string':
      if (typeof json !== 'string')
        throw new InvalidCelDataError(`invalid data, expected string, got ${goTypeName(json)}`);
      return stringValue(json, schemaFormat(schema));
    case 'number':
      if (typeof json === 'number') return json;
      if (typeof json === 'bigint') return Number(json);
      throw new InvalidCelDataError(`invalid data, expected float, got ${goTypeName(json)}`);
    case 'integer': {
      const i = asInt64(json);
      if (i === undefined)
        throw new InvalidCelDataError(`invalid data, expected int, got ${goTypeName(json)}`);
      return i;
    }
    case 'boolean':
      if (typeof json !== 'boolean')
        throw new InvalidCelDataError(`invalid data, expected bool, got ${goTypeName(json)}`);
      return json;
  }
  throw new InvalidCelDataError(
    `invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string OR x-kubernetes-preserve-unknown-fields is true, got ${schemaType(schema)}`,
  );
}

function objectValue(json: unknown, schema: JsonSchema): CelInput {
  if (!isRecord(json)) {
    throw new InvalidCelDataError('invalid data, expected a map for the provided schema with type=object');
  }
  const s = isEmbeddedResource(schema) ? withTypeAndObjectMeta(schema) : schema;
  const properties = schemaProperties(s);
  if (isEmbeddedResource(schema) || properties !== undefined) {
    // Declared properties, by their CEL names; undeclared ones are not reachable from CEL.
    const out = new Map<string, CelInput>();
    for (const [name, value] of Object.entries(json)) {
      const prop = properties?.get(name);
      const escaped = escapeName(name);
      if (prop === undefined || escaped === undefined) continue;
      out.set(escaped, toCelValue(value, prop));
    }
    return objectFromData(out, json);
  }
  const additional = schemaAdditionalProperties(s);
  if (additional !== undefined) {
    const out = new Map<string, CelInput>();
    for (const [name, value] of Object.entries(json)) out.set(name, toCelValue(value, additional));
    return objectFromData(out, json);
  }
  if (isPreserveUnknownFields(s)) return objectFromData(new Map<string, CelInput>(), json);
  throw new InvalidCelDataError(
    'invalid object type, expected either Properties or AdditionalProperties with Allows=true and non-empty Schema',
  );
}

function stringValue(str: string, format: string): CelInput {
  switch (format) {
    case 'duration': {
      const nanos = parseDuration(str);
      if (nanos === undefined)
        throw new InvalidCelDataError(`Invalid duration ${str}: unable to parse ${str} as duration`);
      return create(DurationSchema, {
        seconds: nanos / 1_000_000_000n,
        nanos: Number(nanos % 1_000_000_000n),
      });
    }
    case 'date': {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(str);
      const ms = m === null ? NaN : Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
      if (m === null || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== str) {
        throw new InvalidCelDataError(`Invalid date formatted string ${str}`);
      }
      return create(TimestampSchema, { seconds: BigInt(ms / 1000), nanos: 0 });
    }
    case 'date-time': {
      const ts = parseDateTime(str);
      if (ts === undefined) throw new InvalidCelDataError(`Invalid date-time formatted string ${str}`);
      return create(TimestampSchema, ts);
    }
    case 'byte': {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(str) || str.length % 4 !== 0) {
        throw new InvalidCelDataError(`Invalid byte formatted string ${str}: illegal base64 data`);
      }
      return new Uint8Array(Buffer.from(str, 'base64'));
    }
  }
  return str;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * strfmt.ParseDateTime: RFC 3339 with or without fractions, or ISO 8601 local time (no zone, read
 * as UTC); the empty string is the Unix epoch. Fields out of range are refused, as Go's time.Parse.
 */
function parseDateTime(str: string): { seconds: bigint; nanos: number } | undefined {
  if (str === '') return { seconds: 0n, nanos: 0 };
  const m = DATE_TIME.exec(str);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  let offsetSeconds = 0;
  if (zone !== undefined && zone !== 'Z') {
    const [zh = 0, zm = 0] = zone.slice(1).split(':').map(Number);
    offsetSeconds = (zh * 3600 + zm * 60) * (zone.startsWith('-') ? -1 : 1);
  }
  const nanos = frac === undefined ? 0 : Number(frac.padEnd(9, '0'));
  return { seconds: BigInt(ms / 1000 - offsetSeconds), nanos };
}

const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5
  μs: 1_000n, // U+03BC
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const INT64_MAX = 2n ** 63n - 1n;

/** Go's time.ParseDuration: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, or "0"; nanoseconds. */
function goParseDuration(str: string): bigint | undefined {
  let s = str;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s.startsWith('-');
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let total = 0n;
  const part = /^(\d*)(?:\.(\d*))?([^\d.]+)/u;
  while (s !== '') {
    const m = part.exec(s);
    if (m === null) return undefined;
    const [all, whole = '', frac = '', unit = ''] = m;
    if (whole === '' && frac === '') return undefined;
    const perUnit = UNIT_NANOS[unit];
    if (perUnit === undefined) return undefined;
    total += BigInt(whole === '' ? '0' : whole) * perUnit;
    if (frac !== '') total += (BigInt(frac) * perUnit) / 10n ** BigInt(frac.length);
    if (total > INT64_MAX) return undefined;
    s = s.slice(all.length);
  }
  return negative ? -total : total;
}

/** strfmt's unit spellings: any of a group, or a word starting with its last (`minutes`). */
const STRFMT_UNITS: [bigint, string[]][] = [
  [1n, ['ns', 'nano']],
  [1_000n, ['us', 'µs', 'micro']],
  [1_000_000n, ['ms', 'milli']],
  [1_000_000_000n, ['s', 'sec']],
  [60_000_000_000n, ['m', 'min']],
  [3_600_000_000_000n, ['h', 'hr', 'hour']],
  [86_400_000_000_000n, ['d', 'day']],
  [604_800_000_000_000n, ['w', 'wk', 'week']],
];

/**
 * kube-openapi strfmt.ParseDuration (validate's `duration` format): Go's time.ParseDuration,
 * else every `<digits><unit>` found in the text summed (`3 days`, `1w2d`); nanoseconds, or
 * undefined when neither reads it.
 */
export function parseDuration(str: string): bigint | undefined {
  const go = goParseDuration(str);
  if (go !== undefined) return go;
  let total = 0n;
  let ok = false;
  for (const m of str.matchAll(/(\d+)\s*([A-Za-z\u00b5]+)/gu)) {
    const factor = BigInt(m[1] ?? '0');
    if (factor > INT64_MAX) return undefined;
    const unit = (m[2] ?? '').trim().toLowerCase();
    for (const [multiplier, variants] of STRFMT_UNITS) {
      variants.forEach((variant, i) => {
        if ((i === variants.length - 1 && unit.startsWith(variant)) || variant === unit) {
          ok = true;
          total += factor * multiplier;
        }
      });
    }
  }
  return ok ? BigInt.asIntN(64, total) : undefined;
}
