// Conversions between cel-spec's cel.expr.Value (the conformance data's bindings and expected
// results) and @bufbuild/cel values, for the conformance test.
import {
  celList,
  celMap,
  CelScalar,
  celUint,
  isCelList,
  isCelMap,
  isCelType,
  isCelUint,
  listType,
  mapType,
  objectType,
  type CelInput,
  type CelUint,
  type CelValue,
} from '@bufbuild/cel';
import type { MessageInitShape, Registry } from '@bufbuild/protobuf';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import { anyPack, anyUnpack, NullValue } from '@bufbuild/protobuf/wkt';
import type { MapValue, Value, ValueSchema } from '@bufbuild/cel-spec/cel/expr/value_pb.js';

function typeByName(name: string, registry: Registry): CelInput {
  switch (name) {
    case 'int':
      return CelScalar.INT;
    case 'uint':
      return CelScalar.UINT;
    case 'double':
      return CelScalar.DOUBLE;
    case 'bool':
      return CelScalar.BOOL;
    case 'string':
      return CelScalar.STRING;
    case 'bytes':
      return CelScalar.BYTES;
    case 'list':
      return listType(CelScalar.DYN);
    case 'map':
      return mapType(CelScalar.DYN, CelScalar.DYN);
    case 'null_type':
      return CelScalar.NULL;
    case 'type':
      return CelScalar.TYPE;
    default: {
      const desc = registry.getMessage(name);
      if (desc === undefined) throw new Error(`unknown type ${name}`);
      return objectType(desc);
    }
  }
}

type MapKey = bigint | string | boolean | CelUint;

function isMapKey(v: CelInput): v is MapKey {
  return typeof v === 'bigint' || typeof v === 'string' || typeof v === 'boolean' || isCelUint(v);
}

/** A binding's cel.expr.Value as evaluator input. */
export function toCelInput(value: Value, registry: Registry): CelInput {
  const kind = value.kind;
  switch (kind.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'int64Value':
    case 'doubleValue':
    case 'stringValue':
    case 'bytesValue':
      return kind.value;
    case 'uint64Value':
      return celUint(kind.value);
    case 'enumValue':
      return BigInt(kind.value.value);
    case 'typeValue':
      return typeByName(kind.value, registry);
    case 'listValue':
      return celList(kind.value.values.map((v) => toCelInput(v, registry)));
    case 'mapValue': {
      const map = new Map<MapKey, CelInput>();
      for (const entry of kind.value.entries) {
        if (entry.key === undefined || entry.value === undefined) throw new Error('bad map entry');
        const key = toCelInput(entry.key, registry);
        if (!isMapKey(key)) throw new Error('bad map key');
        map.set(key, toCelInput(entry.value, registry));
      }
      return celMap(map);
    }
    case 'objectValue': {
      const message = anyUnpack(kind.value, registry);
      if (message === undefined) throw new Error(`unknown object ${kind.value.typeUrl}`);
      return message;
    }
    default:
      throw new Error(`unsupported value ${String(kind.case)}`);
  }
}

/** An evaluation result as cel.expr.Value (init shape). */
export function toValue(value: CelValue): MessageInitShape<typeof ValueSchema> {
  if (value === null) return { kind: { case: 'nullValue', value: NullValue.NULL_VALUE } };
  switch (typeof value) {
    case 'boolean':
      return { kind: { case: 'boolValue', value } };
    case 'bigint':
      return { kind: { case: 'int64Value', value } };
    case 'number':
      return { kind: { case: 'doubleValue', value } };
    case 'string':
      return { kind: { case: 'stringValue', value } };
    default:
      break;
  }
  if (value instanceof Uint8Array) return { kind: { case: 'bytesValue', value } };
  if (isCelUint(value)) return { kind: { case: 'uint64Value', value: value.value } };
  if (isCelType(value)) return { kind: { case: 'typeValue', value: value.name } };
  if (isCelList(value)) {
    return { kind: { case: 'listValue', value: { values: Array.from(value, toValue) } } };
  }
  if (isCelMap(value)) {
    const entries = Array.from(value, ([k, v]) => ({ key: toValue(k), value: toValue(v) }));
    return { kind: { case: 'mapValue', value: { entries } } };
  }
  if (isReflectMessage(value)) {
    return { kind: { case: 'objectValue', value: anyPack(value.desc, value.message) } };
  }
  throw new Error('unsupported result value');
}

function keyOrder(a: Value | undefined, b: Value | undefined): number {
  const x = a?.kind;
  const y = b?.kind;
  if (x === undefined || y === undefined || x.case !== y.case) return 0;
  if (x.case === 'stringValue' && y.case === 'stringValue') return x.value < y.value ? -1 : 1;
  if (x.case === 'boolValue' && y.case === 'boolValue') return Number(x.value) - Number(y.value);
  if (
    (x.case === 'int64Value' || x.case === 'uint64Value') &&
    (y.case === 'int64Value' || y.case === 'uint64Value')
  ) {
    return x.value < y.value ? -1 : x.value > y.value ? 1 : 0;
  }
  return 0;
}

/** Map entries sorted by key, deeply, so that equal maps compare equal. */
export function sortMaps(value: Value): void {
  const kind = value.kind;
  if (kind.case === 'listValue') kind.value.values.forEach(sortMaps);
  if (kind.case === 'mapValue') {
    const map: MapValue = kind.value;
    map.entries.sort((a, b) => keyOrder(a.key, b.key));
    for (const entry of map.entries) if (entry.value) sortMaps(entry.value);
  }
}
