/**
 * JSON objects ⇄ Kubernetes protobuf messages, byte-compatible with the gogo-protobuf marshalers
 * of kube-apiserver: fields in number order; a Go pointer field only when set; every other field
 * always (its zero value when the JSON lacks it); map entries sorted by key; repeated scalars
 * unpacked (proto2). Decoding gives the JSON that Go's encoding/json would write for the decoded
 * struct: zero values of `omitempty` fields dropped, zero structs and `null`s kept where Go keeps
 * them.
 */
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { customTypes } from './custom-types.js';
import type { ProtoField, ProtoMessageType, ProtoRegistry } from './registry.js';

/** A body that is not the protobuf message it claims to be. */
export class ProtobufDecodeError extends Error {
  override readonly name = 'ProtobufDecodeError';

  /** The body's type when its envelope was read (upstream then words errors with it). */
  constructor(
    message: string,
    readonly bodyType?: { readonly apiVersion: string; readonly kind: string },
  ) {
    super(message);
  }
}

const utf8 = new TextEncoder();

const surrogate = /[\ud800-\udfff]/;

/**
 * Go's sort of map keys (bytewise on UTF-8). UTF-16 code-unit order is the same unless a key has
 * characters outside the Basic Multilingual Plane, which are compared as bytes.
 */
function compareBytes(a: string, b: string): number {
  if (surrogate.test(a) || surrogate.test(b)) return Buffer.compare(utf8.encode(a), utf8.encode(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

function toNumber(v: JsonValue | undefined): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : 0;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return 0;
}

function scalarText(v: JsonValue | undefined): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}

function toInteger(v: JsonValue | undefined): number {
  return Math.trunc(toNumber(v));
}

function base64Bytes(v: JsonValue | undefined): Uint8Array {
  return typeof v === 'string' ? Buffer.from(v, 'base64') : new Uint8Array(0);
}

export class ProtobufCodec {
  readonly #registry: ProtoRegistry;

  constructor(registry: ProtoRegistry) {
    this.#registry = registry;
  }

  get registry(): ProtoRegistry {
    return this.#registry;
  }

  #type(name: string): ProtoMessageType {
    const t = this.#registry.message(name);
    if (t === undefined) throw new Error(`protobuf: no message ${name}`);
    return t;
  }

  /** The message bytes of `value` as message `name` (no envelope). */
  encode(name: string, value: JsonValue | undefined): Uint8Array {
    const w = new BinaryWriter();
    this.#writeMessageBody(w, name, value);
    return w.finish();
  }

  /** The JSON value of message `name` in `bytes`. */
  decode(name: string, bytes: Uint8Array): JsonValue {
    try {
      return this.#readMessage(name, bytes);
    } catch (err) {
      if (err instanceof ProtobufDecodeError) throw err;
      throw new ProtobufDecodeError(err instanceof Error ? err.message : String(err));
    }
  }

  /** Writes the fields of a message (custom types through their own mapping). */
  #writeMessageBody(w: BinaryWriter, name: string, value: JsonValue | undefined): void {
    const custom = customTypes.get(name);
    if (custom !== undefined) {
      custom.write(w, value, this);
      return;
    }
    const obj = isJsonObject(value) ? value : {};
    for (const f of this.#type(name).fields) {
      const v = f.inline ? obj : obj[f.json];
      if (f.map) {
        if (isJsonObject(v)) this.#writeMap(w, f, v);
      } else if (f.repeated) {
        if (Array.isArray(v)) for (const el of v) this.writeValue(w, f.number, f.type, el);
      } else if (v === undefined || v === null) {
        // Pointers and []byte (gogo: `if m.X != nil`) are written only when set.
        if (!f.pointer && f.type !== 'bytes') this.writeValue(w, f.number, f.type, undefined);
      } else {
        this.writeValue(w, f.number, f.type, v);
      }
    }
  }

  #writeMap(w: BinaryWriter, f: ProtoField, map: JsonObject): void {
    for (const key of Object.keys(map).sort(compareBytes)) {
      const v = map[key];
      w.tag(f.number, WireType.LengthDelimited).fork();
      w.tag(1, WireType.LengthDelimited).string(key);
      // A nil []byte value is left out (gogo writes `if v != nil`).
      if (!(f.type === 'bytes' && (v === null || v === undefined))) this.writeValue(w, 2, f.type, v);
      w.join();
    }
  }

  /** Writes one value with its tag; undefined writes the type's zero value. */
  writeValue(w: BinaryWriter, number: number, type: string, v: JsonValue | undefined): void {
    switch (type) {
      case 'string':
        w.tag(number, WireType.LengthDelimited).string(scalarText(v));
        return;
      case 'bytes':
        w.tag(number, WireType.LengthDelimited).bytes(base64Bytes(v));
        return;
      case 'int32':
        w.tag(number, WireType.Varint).int32(toInteger(v) | 0);
        return;
      case 'int64':
        w.tag(number, WireType.Varint).int64(toInteger(v));
        return;
      case 'bool':
        w.tag(number, WireType.Varint).bool(v === true);
        return;
      case 'double':
        w.tag(number, WireType.Bit64).double(toNumber(v));
        return;
      default:
        w.tag(number, WireType.LengthDelimited).fork();
        this.#writeMessageBody(w, type, v);
        w.join();
    }
  }

  #readMessage(name: string, bytes: Uint8Array): JsonValue {
    const custom = customTypes.get(name);
    if (custom !== undefined) return custom.read(bytes, this);
    const type = this.#type(name);
    const values = new Map<ProtoField, JsonValue>();
    const r = new BinaryReader(bytes);
    while (r.pos < r.len) {
      const [number, wireType] = r.tag();
      const f = type.byNumber.get(number);
      if (f === undefined) {
        r.skip(wireType, number);
        continue;
      }
      if (f.map) {
        const [key, value] = this.#readMapEntry(f, r.bytes());
        const m = values.get(f);
        if (isJsonObject(m)) m[key] = value;
        else values.set(f, { [key]: value });
      } else if (f.repeated) {
        let list = values.get(f);
        if (!Array.isArray(list)) values.set(f, (list = []));
        if (wireType === WireType.LengthDelimited && isPackable(f.type)) {
          const packed = new BinaryReader(r.bytes());
          while (packed.pos < packed.len) list.push(readScalar(packed, f.type));
        } else {
          list.push(this.#readValue(r, f.type, wireType));
        }
      } else {
        values.set(f, this.#readValue(r, f.type, wireType));
      }
    }
    return this.#goJson(type, values);
  }

  /**
   * What Go's encoding/json writes for the decoded struct: fields in declaration order, zeros of
   * absent non-pointer fields filled in, empty `omitempty` ones dropped.
   */
  #goJson(type: ProtoMessageType, values: ReadonlyMap<ProtoField, JsonValue>): JsonObject {
    const out: JsonObject = {};
    for (const f of type.jsonOrder) {
      const v = values.get(f);
      if (f.inline) {
        const inner = v === undefined ? this.#zeroStruct(f.type) : v;
        if (isJsonObject(inner)) Object.assign(out, inner);
        continue;
      }
      if (v === undefined) {
        if (f.pointer) continue;
        const zero = this.#zeroValue(f);
        if (zero !== undefined) out[f.json] = zero;
        continue;
      }
      if (!f.pointer && f.omitempty && !f.repeated && !f.map) {
        if (isScalar(f.type) && (v === '' || v === 0 || v === false)) continue;
        if (customTypes.get(f.type)?.sliceLike === true && Array.isArray(v) && v.length === 0) continue;
      }
      out[f.json] = v;
    }
    return out;
  }

  /** The JSON of an absent non-pointer field, or undefined when Go leaves it out. */
  #zeroValue(f: ProtoField): JsonValue | undefined {
    if (f.repeated || f.map) return f.omitempty ? undefined : null;
    switch (f.type) {
      case 'string':
        return f.omitempty ? undefined : '';
      case 'int32':
      case 'int64':
      case 'double':
        return f.omitempty ? undefined : 0;
      case 'bool':
        return f.omitempty ? undefined : false;
      case 'bytes':
        return f.omitempty ? undefined : null;
      default: {
        const custom = customTypes.get(f.type);
        if (custom !== undefined) return custom.sliceLike && f.omitempty ? undefined : custom.zero;
        return this.#zeroStruct(f.type);
      }
    }
  }

  #zeroStruct(name: string): JsonObject {
    return this.#goJson(this.#type(name), new Map());
  }

  #readMapEntry(f: ProtoField, bytes: Uint8Array): [string, JsonValue] {
    const r = new BinaryReader(bytes);
    let key = '';
    let value: JsonValue | undefined;
    while (r.pos < r.len) {
      const [number, wireType] = r.tag();
      if (number === 1) key = r.string();
      else if (number === 2) value = this.#readValue(r, f.type, wireType);
      else r.skip(wireType, number);
    }
    if (value === undefined) {
      const custom = customTypes.get(f.type);
      value =
        f.type === 'bytes'
          ? null
          : custom !== undefined
            ? custom.zero
            : isScalar(f.type)
              ? scalarZero(f.type)
              : this.#zeroStruct(f.type);
    }
    return [key, value];
  }

  #readValue(r: BinaryReader, type: string, wireType: WireType): JsonValue {
    if (isScalar(type)) {
      if (type === 'string' || type === 'bytes') expectWire(wireType, WireType.LengthDelimited, type);
      else if (type === 'double') expectWire(wireType, WireType.Bit64, type);
      else expectWire(wireType, WireType.Varint, type);
      return readScalar(r, type);
    }
    expectWire(wireType, WireType.LengthDelimited, type);
    return this.#readMessage(type, r.bytes());
  }
}

function expectWire(actual: WireType, expected: WireType, type: string): void {
  if (actual !== expected) {
    throw new ProtobufDecodeError(`proto: wrong wireType = ${actual} for field of type ${type}`);
  }
}

const scalarTypes = new Set(['string', 'bytes', 'int32', 'int64', 'bool', 'double']);

function isScalar(type: string): boolean {
  return scalarTypes.has(type);
}

function isPackable(type: string): boolean {
  return type === 'int32' || type === 'int64' || type === 'bool' || type === 'double';
}

function scalarZero(type: string): JsonValue {
  if (type === 'string') return '';
  if (type === 'bool') return false;
  return 0;
}

function readScalar(r: BinaryReader, type: string): JsonValue {
  switch (type) {
    case 'string':
      return r.string();
    case 'bytes':
      return Buffer.from(r.bytes()).toString('base64');
    case 'int32':
      return r.int32();
    case 'int64':
      return Number(r.int64());
    case 'bool':
      return r.bool();
    default:
      return r.double();
  }
}
