/**
 * Messages whose JSON is not their fields: times, durations, quantities, int-or-strings, raw JSON
 * (RawExtension, apiextensions JSON, FieldsV1), string lists (Verbs, ExtraValue) and the
 * apiextensions either-or schema types. Each maps its own JSON to and from its wire fields.
 */
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import type { BinaryWriter } from '@bufbuild/protobuf/wire';
import { isJsonObject } from '../../util/json.js';
import type { JsonValue } from '../../util/json.js';
import type { ProtobufCodec } from './codec.js';
import {
  formatGoDuration,
  formatMicroTime,
  formatTime,
  parseGoDuration,
  parseRfc3339,
  zeroTimeSeconds,
} from './go-time.js';
import type { Timestamp } from './go-time.js';

export interface CustomType {
  /** Writes the message's fields for a JSON value (undefined: Go's zero value). */
  write(w: BinaryWriter, value: JsonValue | undefined, codec: ProtobufCodec): void;
  /** The JSON of the message in `bytes`. */
  read(bytes: Uint8Array, codec: ProtobufCodec): JsonValue;
  /** The JSON Go writes for the zero value. */
  readonly zero: JsonValue;
  /** A Go slice type, so `omitempty` drops it when empty. */
  readonly sliceLike: boolean;
}

const meta = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const apiext = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';
const jsonSchemaProps = `${apiext}.JSONSchemaProps`;
const utf8 = new TextEncoder();

/** Reads every field of a message as [number, wire type, reader positioned at the value]. */
function* fields(bytes: Uint8Array): Generator<[number, WireType, BinaryReader]> {
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [number, wireType] = r.tag();
    const start = r.pos;
    yield [number, wireType, r];
    if (r.pos === start) r.skip(wireType, number);
  }
}

function readTimestamp(bytes: Uint8Array): Timestamp {
  // An empty message is Go's zero time (metav1.Time.Unmarshal of no data).
  if (bytes.length === 0) return { seconds: zeroTimeSeconds, nanos: 0 };
  let seconds = 0;
  let nanos = 0;
  for (const [n, , r] of fields(bytes)) {
    if (n === 1) seconds = Number(r.int64());
    else if (n === 2) nanos = r.int32();
  }
  return { seconds, nanos };
}

/** A zero time writes an empty message (metav1.Time.MarshalToSizedBuffer: `IsZero()` → nothing). */
function writeTimestamp(w: BinaryWriter, value: JsonValue | undefined, micro: boolean): void {
  const ts = typeof value === 'string' ? parseRfc3339(value) : undefined;
  if (ts === undefined || (ts.seconds === zeroTimeSeconds && ts.nanos === 0)) return;
  // A MicroTime's JSON keeps microseconds.
  const nanos = micro ? Math.floor(ts.nanos / 1000) * 1000 : ts.nanos;
  w.tag(1, WireType.Varint).int64(ts.seconds);
  w.tag(2, WireType.Varint).int32(nanos);
}

/** JSON text as raw bytes (RawExtension, JSON, FieldsV1): `Raw` is field 1. */
function rawJson(zero: JsonValue): CustomType {
  return {
    write(w, value) {
      if (value === undefined || value === null) return;
      w.tag(1, WireType.LengthDelimited).bytes(utf8.encode(JSON.stringify(value)));
    },
    read(bytes) {
      for (const [n, wt, r] of fields(bytes)) {
        if (n !== 1 || wt !== WireType.LengthDelimited) continue;
        const raw = r.bytes();
        if (raw.length === 0) return null;
        try {
          return JSON.parse(Buffer.from(raw).toString('utf8')) as JsonValue;
        } catch {
          return null;
        }
      }
      return zero;
    },
    zero,
    sliceLike: false,
  };
}

/** A Go []string type encoded as a message with `repeated string items = 1`. */
const stringList: CustomType = {
  write(w, value) {
    if (!Array.isArray(value)) return;
    for (const s of value) w.tag(1, WireType.LengthDelimited).string(typeof s === 'string' ? s : '');
  },
  read(bytes) {
    const out: JsonValue[] = [];
    for (const [n, wt, r] of fields(bytes))
      if (n === 1 && wt === WireType.LengthDelimited) out.push(r.string());
    return out;
  },
  zero: null,
  sliceLike: true,
};

export const customTypes: ReadonlyMap<string, CustomType> = new Map<string, CustomType>([
  [
    `${meta}.Time`,
    {
      write: (w, v) => writeTimestamp(w, v, false),
      read: (bytes) => formatTime(readTimestamp(bytes)),
      zero: null,
      sliceLike: false,
    },
  ],
  [
    `${meta}.MicroTime`,
    {
      write: (w, v) => writeTimestamp(w, v, true),
      read: (bytes) => formatMicroTime(readTimestamp(bytes)),
      zero: null,
      sliceLike: false,
    },
  ],
  [
    `${meta}.Duration`,
    {
      write(w, v) {
        w.tag(1, WireType.Varint).int64(typeof v === 'string' ? (parseGoDuration(v) ?? 0) : 0);
      },
      read(bytes) {
        let nanos = 0;
        for (const [n, , r] of fields(bytes)) if (n === 1) nanos = Number(r.int64());
        return formatGoDuration(nanos);
      },
      zero: '0s',
      sliceLike: false,
    },
  ],
  [`${meta}.FieldsV1`, rawJson(null)],
  [`${meta}.Verbs`, stringList],
  [
    'k8s.io.apimachinery.pkg.api.resource.Quantity',
    {
      write(w, v) {
        w.tag(1, WireType.LengthDelimited).string(
          typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '0',
        );
      },
      read(bytes) {
        for (const [n, wt, r] of fields(bytes))
          if (n === 1 && wt === WireType.LengthDelimited) return r.string();
        return '0';
      },
      zero: '0',
      sliceLike: false,
    },
  ],
  [
    'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
    {
      write(w, v) {
        const isString = typeof v === 'string';
        w.tag(1, WireType.Varint).int64(isString ? 1 : 0);
        w.tag(2, WireType.Varint).int32(typeof v === 'number' ? Math.trunc(v) | 0 : 0);
        w.tag(3, WireType.LengthDelimited).string(isString ? v : '');
      },
      read(bytes) {
        let type = 0;
        let intVal = 0;
        let strVal = '';
        for (const [n, , r] of fields(bytes)) {
          if (n === 1) type = Number(r.int64());
          else if (n === 2) intVal = r.int32();
          else if (n === 3) strVal = r.string();
        }
        return type === 1 ? strVal : intVal;
      },
      zero: 0,
      sliceLike: false,
    },
  ],
  ['k8s.io.apimachinery.pkg.runtime.RawExtension', rawJson(null)],
  [`${apiext}.JSON`, rawJson(null)],
  [
    `${apiext}.JSONSchemaPropsOrArray`,
    {
      write(w, v, codec) {
        if (Array.isArray(v)) for (const s of v) codec.writeValue(w, 2, jsonSchemaProps, s);
        else if (isJsonObject(v)) codec.writeValue(w, 1, jsonSchemaProps, v);
      },
      read(bytes, codec) {
        let schema: JsonValue = null;
        const list: JsonValue[] = [];
        for (const [n, wt, r] of fields(bytes)) {
          if (wt !== WireType.LengthDelimited) continue;
          if (n === 1) schema = codec.decode(jsonSchemaProps, r.bytes());
          else if (n === 2) list.push(codec.decode(jsonSchemaProps, r.bytes()));
        }
        return list.length > 0 ? list : schema;
      },
      zero: null,
      sliceLike: false,
    },
  ],
  [
    `${apiext}.JSONSchemaPropsOrBool`,
    {
      write(w, v, codec) {
        w.tag(1, WireType.Varint).bool(v === true || isJsonObject(v));
        if (isJsonObject(v)) codec.writeValue(w, 2, jsonSchemaProps, v);
      },
      read(bytes, codec) {
        let allows = false;
        let schema: JsonValue | undefined;
        for (const [n, wt, r] of fields(bytes)) {
          if (n === 1 && wt === WireType.Varint) allows = r.bool();
          else if (n === 2 && wt === WireType.LengthDelimited)
            schema = codec.decode(jsonSchemaProps, r.bytes());
        }
        return schema ?? allows;
      },
      zero: false,
      sliceLike: false,
    },
  ],
  [
    `${apiext}.JSONSchemaPropsOrStringArray`,
    {
      write(w, v, codec) {
        if (isJsonObject(v)) codec.writeValue(w, 1, jsonSchemaProps, v);
        else if (Array.isArray(v)) {
          for (const s of v) w.tag(2, WireType.LengthDelimited).string(typeof s === 'string' ? s : '');
        }
      },
      read(bytes, codec) {
        let schema: JsonValue = null;
        const property: JsonValue[] = [];
        for (const [n, wt, r] of fields(bytes)) {
          if (wt !== WireType.LengthDelimited) continue;
          if (n === 1) schema = codec.decode(jsonSchemaProps, r.bytes());
          else if (n === 2) property.push(r.string());
        }
        return property.length > 0 ? property : schema;
      },
      zero: null,
      sliceLike: false,
    },
  ],
  ...['k8s.io.api.authentication.v1', 'k8s.io.api.authorization.v1', 'k8s.io.api.certificates.v1'].map(
    (pkg): [string, CustomType] => [`${pkg}.ExtraValue`, stringList],
  ),
  ['k8s.io.api.authentication.v1beta1.ExtraValue', stringList],
]);
