import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { gnosticMessage } from './gnostic/messages.js';
import type { FieldInfo, MessageInfo } from './gnostic/messages.js';
import { toGoYaml } from './gnostic/yaml.js';

/**
 * Encodes a Swagger 2.0 JSON document as gnostic's `openapi.v2.Document` protobuf message, the body
 * kube-apiserver serves for `/openapi/v2` with
 * `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`. Mapping follows gnostic's
 * compiler (NewDocument): `x-` keys become NamedAny with YAML text, objects used as maps become
 * repeated Named* pairs in key order, oneofs are picked the way the compiler's matching picks them,
 * and fields are written in field-number order with proto3 defaults left out (as Go's Marshal does).
 */
export function encodeOpenApiV2Protobuf(doc: JsonObject): Uint8Array {
  const w = new BinaryWriter();
  writeBody(w, 'Document', doc);
  return w.finish();
}

const RESPONSE_CODE = /^([0-9]{3})$|^(default)$/;
const NON_BODY_IN: Readonly<Record<string, number>> = { header: 1, formData: 2, query: 3, path: 4 };
const OAUTH2_FLOW: Readonly<Record<string, number>> = {
  implicit: 3,
  password: 4,
  application: 5,
  accessCode: 6,
};

function str(v: JsonValue | undefined): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

/** Which field of a oneof message the JSON value selects (0: none). */
function oneofField(type: string, v: JsonValue): number {
  if (type === 'AdditionalPropertiesItem') return typeof v === 'boolean' ? 2 : isJsonObject(v) ? 1 : 0;
  if (!isJsonObject(v)) return 0;
  switch (type) {
    case 'Parameter':
      return v.in === 'body' ? 1 : 2;
    case 'NonBodyParameter':
      return NON_BODY_IN[str(v.in) ?? ''] ?? 0;
    case 'ParametersItem':
    case 'ResponseValue':
      return '$ref' in v ? 2 : 1;
    case 'SchemaItem':
      return v.type === 'file' ? 2 : 1;
    case 'SecurityDefinitionsItem':
      if (v.type === 'basic') return 1;
      if (v.type === 'apiKey') return 2;
      return v.type === 'oauth2' ? (OAUTH2_FLOW[str(v.flow) ?? ''] ?? 0) : 0;
    default:
      return 0;
  }
}

function writeMessageField(w: BinaryWriter, no: number, type: string, v: JsonValue): void {
  w.tag(no, WireType.LengthDelimited).fork();
  writeBody(w, type, v);
  w.join();
}

/** A NamedX pair (name = 1, value = 2) as field `no`. */
function writeNamed(w: BinaryWriter, no: number, namedType: string, name: string, v: JsonValue): void {
  const valueKind = gnosticMessage(namedType).fields[1]!.kind;
  w.tag(no, WireType.LengthDelimited).fork();
  if (name !== '') w.tag(1, WireType.LengthDelimited).string(name);
  if (valueKind === 's') {
    const s = str(v);
    if (s !== undefined && s !== '') w.tag(2, WireType.LengthDelimited).string(s);
  } else {
    writeMessageField(w, 2, valueKind, v);
  }
  w.join();
}

/** Pairs for the keys of `obj` accepted by `accept`, as repeated field `f`. */
function writeNamedEntries(
  w: BinaryWriter,
  f: FieldInfo,
  obj: JsonObject,
  accept: (k: string) => boolean,
): void {
  for (const k of Object.keys(obj)) {
    if (accept(k)) writeNamed(w, f.no, f.kind, k, obj[k]!);
  }
}

const isExtension = (k: string): boolean => k.startsWith('x-');

function writeScalar(w: BinaryWriter, f: FieldInfo, v: JsonValue): void {
  switch (f.kind) {
    case 's': {
      const s = str(v);
      if (s !== undefined && (s !== '' || f.repeated)) w.tag(f.no, WireType.LengthDelimited).string(s);
      return;
    }
    case 'b':
      if (v === true) w.tag(f.no, WireType.Varint).bool(true);
      return;
    case 'd':
      if (typeof v === 'number' && v !== 0) w.tag(f.no, WireType.Bit64).double(v);
      return;
    case 'i':
      if (typeof v === 'number' && v !== 0 && Number.isInteger(v)) w.tag(f.no, WireType.Varint).int64(v);
      return;
    default:
      return;
  }
}

function writeField(w: BinaryWriter, f: FieldInfo, v: JsonValue): void {
  const scalar = f.kind.length === 1;
  if (f.repeated) {
    const items = Array.isArray(v) ? v : [];
    for (const item of items) {
      if (scalar) writeScalar(w, f, item);
      else writeMessageField(w, f.no, f.kind, item);
    }
    return;
  }
  if (scalar) writeScalar(w, f, v);
  else if (v !== null || f.kind === 'Any') writeMessageField(w, f.no, f.kind, v);
}

function writeStrings(w: BinaryWriter, v: JsonValue): void {
  const items = Array.isArray(v) ? v : [v];
  for (const item of items) {
    const s = str(item) ?? (typeof item === 'boolean' ? String(item) : undefined);
    if (s !== undefined) w.tag(1, WireType.LengthDelimited).string(s);
  }
}

function writeGeneric(w: BinaryWriter, info: MessageInfo, v: JsonValue): void {
  if (!isJsonObject(v)) return;
  const fields = info.fields;
  const isMap = fields.length === 1 && fields[0]!.key === 'additionalProperties';
  for (const f of fields) {
    if (isMap) writeNamedEntries(w, f, v, () => true);
    else if (f.key === 'vendorExtension') writeNamedEntries(w, f, v, isExtension);
    else if (info.name === 'Paths' && f.key === 'path') writeNamedEntries(w, f, v, (k) => k.startsWith('/'));
    else if (info.name === 'Responses' && f.key === 'responseCode') {
      writeNamedEntries(w, f, v, (k) => RESPONSE_CODE.test(k));
    } else {
      const fv = v[f.key];
      if (fv !== undefined) writeField(w, f, fv);
    }
  }
}

/** Writes the fields of message `type` built from JSON value `v` (no enclosing tag). */
function writeBody(w: BinaryWriter, type: string, v: JsonValue): void {
  switch (type) {
    case 'Any':
      w.tag(2, WireType.LengthDelimited).string(toGoYaml(v));
      return;
    case 'TypeItem':
    case 'StringArray':
      writeStrings(w, v);
      return;
    case 'ItemsItem':
      for (const s of Array.isArray(v) ? v : [v]) writeMessageField(w, 1, 'Schema', s);
      return;
    default:
      break;
  }
  const info = gnosticMessage(type);
  if (!info.oneof) {
    writeGeneric(w, info, v);
    return;
  }
  const no = oneofField(type, v);
  const f = info.fields.find((x) => x.no === no);
  if (f === undefined) return;
  if (f.kind === 'b') w.tag(f.no, WireType.Varint).bool(v === true);
  else writeMessageField(w, f.no, f.kind, v);
}
