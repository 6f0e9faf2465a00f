/**
 * The text go-spew v1.1.1 prints for `%#v` of a core/v1 PodTemplateSpec (ConfigState with
 * SortKeys, SpewKeys and DisableMethods, as upstream's hashutil.DeepHashObject), computed from the
 * template's JSON and the Go declarations of v0.27 (generated/core-v1-go-types.ts): every field of
 * every struct in declaration order, each value preceded by its Go type in parentheses except where
 * spew leaves it out (slice elements, map keys and values, what a pointer points to), strings
 * unquoted, nil pointers, slices and maps as `<nil>`, map keys sorted.
 *
 * The template is taken as kube-controller-manager sees it after decoding the API server's
 * protobuf: empty lists and maps are nil (protobuf does not carry them), an object given for a
 * pointer field is a non-nil pointer even when empty. resource.Quantity is printed with its
 * unexported fields as upstream's ParseQuantity fills them (int64Amount and the kept string on the
 * fast path); quantities needing inf.Dec (more than 18 significant digits) and non-null timestamps
 * inside a template (upstream decodes them into the local time zone) are approximations.
 */
import { parseQuantity } from '../../machinery/quantity/quantity.js';
import { splitQuantityString } from '../../machinery/quantity/parse.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { coreV1GoNamed, coreV1GoStructs } from './generated/core-v1-go-types.js';

type Field = readonly [goName: string, jsonName: string, goType: string];
type Pkg = 'core' | 'meta';

/** The metav1 types a PodTemplateSpec reaches (k8s.io/apimachinery v0.27 meta/v1/types.go). */
const metaStructs: Readonly<Record<string, readonly Field[]>> = {
  ObjectMeta: [
    ['Name', 'name', 'string'],
    ['GenerateName', 'generateName', 'string'],
    ['Namespace', 'namespace', 'string'],
    ['SelfLink', 'selfLink', 'string'],
    ['UID', 'uid', 'types.UID'],
    ['ResourceVersion', 'resourceVersion', 'string'],
    ['Generation', 'generation', 'int64'],
    ['CreationTimestamp', 'creationTimestamp', 'Time'],
    ['DeletionTimestamp', 'deletionTimestamp', '*Time'],
    ['DeletionGracePeriodSeconds', 'deletionGracePeriodSeconds', '*int64'],
    ['Labels', 'labels', 'map[string]string'],
    ['Annotations', 'annotations', 'map[string]string'],
    ['OwnerReferences', 'ownerReferences', '[]OwnerReference'],
    ['Finalizers', 'finalizers', '[]string'],
    ['ManagedFields', 'managedFields', '[]ManagedFieldsEntry'],
  ],
  OwnerReference: [
    ['APIVersion', 'apiVersion', 'string'],
    ['Kind', 'kind', 'string'],
    ['Name', 'name', 'string'],
    ['UID', 'uid', 'types.UID'],
    ['Controller', 'controller', '*bool'],
    ['BlockOwnerDeletion', 'blockOwnerDeletion', '*bool'],
  ],
  ManagedFieldsEntry: [
    ['Manager', 'manager', 'string'],
    ['Operation', 'operation', 'ManagedFieldsOperationType'],
    ['APIVersion', 'apiVersion', 'string'],
    ['Time', 'time', '*Time'],
    ['FieldsType', 'fieldsType', 'string'],
    ['FieldsV1', 'fieldsV1', '*FieldsV1'],
    ['Subresource', 'subresource', 'string'],
  ],
  LabelSelector: [
    ['MatchLabels', 'matchLabels', 'map[string]string'],
    ['MatchExpressions', 'matchExpressions', '[]LabelSelectorRequirement'],
  ],
  LabelSelectorRequirement: [
    ['Key', 'key', 'string'],
    ['Operator', 'operator', 'LabelSelectorOperator'],
    ['Values', 'values', '[]string'],
  ],
};
const metaNamed: Readonly<Record<string, string>> = {
  ManagedFieldsOperationType: 'string',
  LabelSelectorOperator: 'string',
};

const ints = new Set([
  'int',
  'int8',
  'int16',
  'int32',
  'int64',
  'uint',
  'uint8',
  'uint16',
  'uint32',
  'uint64',
  'byte',
]);

/** A Go type expression, resolved in the package that declares it. */
type GoType =
  | { readonly kind: 'ptr'; readonly elem: GoType }
  | { readonly kind: 'slice'; readonly name: string; readonly elem: GoType }
  | { readonly kind: 'map'; readonly name: string; readonly key: GoType; readonly elem: GoType }
  | { readonly kind: 'string' | 'bool' | 'int'; readonly name: string }
  | { readonly kind: 'struct'; readonly name: string; readonly pkg: Pkg; readonly struct: string }
  | { readonly kind: 'quantity' | 'intorstring' | 'time' | 'fieldsv1'; readonly name: string };

const cache = new Map<string, GoType>();

function resolve(expr: string, pkg: Pkg): GoType {
  const key = `${pkg}:${expr}`;
  let t = cache.get(key);
  if (t === undefined) {
    t = resolveUncached(expr, pkg);
    cache.set(key, t);
  }
  return t;
}

function typeName(t: GoType): string {
  return t.kind === 'ptr' ? `*${typeName(t.elem)}` : t.name;
}

function resolveUncached(expr: string, pkg: Pkg): GoType {
  if (expr.startsWith('*')) return { kind: 'ptr', elem: resolve(expr.slice(1), pkg) };
  if (expr.startsWith('[]')) {
    const elem = resolve(expr.slice(2), pkg);
    return { kind: 'slice', name: `[]${typeName(elem)}`, elem };
  }
  const m = /^map\[([^\]]+)\](.+)$/.exec(expr);
  if (m !== null) {
    const k = resolve(m[1]!, pkg);
    const elem = resolve(m[2]!, pkg);
    return { kind: 'map', name: `map[${typeName(k)}]${typeName(elem)}`, key: k, elem };
  }
  if (expr === 'string') return { kind: 'string', name: 'string' };
  if (expr === 'bool') return { kind: 'bool', name: 'bool' };
  if (ints.has(expr)) return { kind: 'int', name: expr === 'byte' ? 'uint8' : expr };
  switch (expr) {
    case 'resource.Quantity':
      return { kind: 'quantity', name: 'resource.Quantity' };
    case 'intstr.IntOrString':
      return { kind: 'intorstring', name: 'intstr.IntOrString' };
    case 'types.UID':
      return { kind: 'string', name: 'types.UID' };
  }
  let p = pkg;
  let ident = expr;
  if (expr.startsWith('metav1.')) {
    p = 'meta';
    ident = expr.slice('metav1.'.length);
  }
  if (p === 'meta' && ident === 'Time') return { kind: 'time', name: 'v1.Time' };
  if (p === 'meta' && ident === 'FieldsV1') return { kind: 'fieldsv1', name: 'v1.FieldsV1' };
  const structs = p === 'core' ? coreV1GoStructs : metaStructs;
  const named = p === 'core' ? coreV1GoNamed : metaNamed;
  const name = `v1.${ident}`;
  if (Object.hasOwn(structs, ident)) return { kind: 'struct', name, pkg: p, struct: ident };
  const underlying = Object.hasOwn(named, ident) ? named[ident] : undefined;
  if (underlying === undefined) throw new Error(`spew: unknown Go type ${expr} in ${pkg}`);
  const u = resolve(underlying, p);
  if (u.kind === 'string' || u.kind === 'bool' || u.kind === 'int') return { kind: u.kind, name };
  if (u.kind === 'map') return { ...u, name };
  if (u.kind === 'slice') return { ...u, name };
  throw new Error(`spew: unsupported named type ${expr}`);
}

function isEmpty(v: JsonValue | undefined): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isJsonObject(v) && Object.keys(v).length === 0;
}

function goString(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

function goInt(v: JsonValue | undefined): string {
  if (typeof v === 'number') return String(Math.trunc(v));
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return v;
  return '0';
}

class Printer {
  out = '';

  value(t: GoType, v: JsonValue | undefined, ignoreType: boolean): void {
    if (t.kind === 'ptr') {
      if (v === undefined || v === null) {
        this.out += ignoreType ? '<nil>' : `(${typeName(t)})<nil>`;
        return;
      }
      // Only single pointers occur in these types.
      this.out += ignoreType ? '<*>' : `(${typeName(t)})`;
      this.value(t.elem, v, true);
      return;
    }
    if (!ignoreType) this.out += `(${t.name})`;
    switch (t.kind) {
      case 'string':
        this.out += goString(v);
        return;
      case 'bool':
        this.out += v === true ? 'true' : 'false';
        return;
      case 'int':
        this.out += goInt(v);
        return;
      case 'slice':
        this.#slice(t.elem, v);
        return;
      case 'map':
        this.#map(t.key, t.elem, v);
        return;
      case 'struct':
        this.#struct(t.pkg === 'core' ? coreV1GoStructs[t.struct] : metaStructs[t.struct], t.pkg, v);
        return;
      case 'quantity':
        this.#quantity(v);
        return;
      case 'intorstring':
        this.#intOrString(v);
        return;
      case 'time':
        this.#time(v);
        return;
      case 'fieldsv1':
        this.out += '{Raw:([]uint8)';
        this.#bytes(isJsonObject(v) ? v : undefined);
        this.out += '}';
        return;
    }
  }

  #slice(elem: GoType, v: JsonValue | undefined): void {
    if (!Array.isArray(v) || v.length === 0) {
      this.out += '<nil>';
      return;
    }
    this.out += '[';
    v.forEach((e, i) => {
      if (i > 0) this.out += ' ';
      this.value(elem, e, true);
    });
    this.out += ']';
  }

  #map(key: GoType, elem: GoType, v: JsonValue | undefined): void {
    if (!isJsonObject(v) || isEmpty(v)) {
      this.out += '<nil>';
      return;
    }
    // Keys are strings here: spew sorts them by Go string order (bytes; UTF-16 agrees for ASCII).
    const keys = Object.keys(v).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    this.out += 'map[';
    keys.forEach((k, i) => {
      if (i > 0) this.out += ' ';
      this.value(key, k, true);
      this.out += ':';
      this.value(elem, v[k], true);
    });
    this.out += ']';
  }

  #struct(fields: readonly Field[] | undefined, pkg: Pkg, v: JsonValue | undefined): void {
    const obj = isJsonObject(v) ? v : {};
    this.out += '{';
    (fields ?? []).forEach(([goName, jsonName, goType], i) => {
      if (i > 0) this.out += ' ';
      this.out += `${goName}:`;
      // An inlined (embedded) struct reads its fields from the same JSON object.
      this.value(resolve(goType, pkg), jsonName === '' ? obj : obj[jsonName], false);
    });
    this.out += '}';
  }

  #quantity(v: JsonValue | undefined): void {
    const q = quantityFields(v);
    this.out +=
      `{i:(resource.int64Amount){value:(int64)${q.value} scale:(resource.Scale)${q.scale}} ` +
      `d:(resource.infDecAmount){Dec:${q.dec}} s:(string)${q.s} Format:(resource.Format)${q.format}}`;
  }

  #intOrString(v: JsonValue | undefined): void {
    if (typeof v === 'string') this.out += `{Type:(intstr.Type)1 IntVal:(int32)0 StrVal:(string)${v}}`;
    else this.out += `{Type:(intstr.Type)0 IntVal:(int32)${goInt(v)} StrVal:(string)}`;
  }

  #time(v: JsonValue | undefined): void {
    let wall = 0;
    let ext = 0n;
    if (typeof v === 'string') {
      const ms = Date.parse(v);
      if (!Number.isNaN(ms)) {
        ext = BigInt(Math.floor(ms / 1000)) + 62135596800n;
        wall = 0;
      }
    }
    this.out += `{Time:(time.Time){wall:(uint64)${wall} ext:(int64)${ext} loc:(*time.Location)<nil>}}`;
  }

  #bytes(v: JsonObject | undefined): void {
    // FieldsV1 is JSON on the wire; Raw holds its bytes.
    if (v === undefined || Object.keys(v).length === 0) {
      this.out += '<nil>';
      return;
    }
    const bytes = Buffer.from(JSON.stringify(v));
    this.out += `[${[...bytes].join(' ')}]`;
  }
}

interface QuantityFields {
  readonly value: string;
  readonly scale: number;
  readonly dec: string;
  readonly s: string;
  readonly format: string;
}

/** resource.Quantity's unexported fields after upstream's ParseQuantity of `v`. */
export function quantityFields(v: JsonValue | undefined): QuantityFields {
  const zero: QuantityFields = { value: '0', scale: 0, dec: '(*inf.Dec)<nil>', s: '', format: '' };
  if (v === undefined || v === null) return zero;
  const str = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : undefined;
  if (str === undefined) return zero;
  let q;
  try {
    q = parseQuantity(str);
  } catch {
    return zero;
  }
  if (str === '0') return { value: '0', scale: 0, dec: '(*inf.Dec)<nil>', s: '0', format: 'DecimalSI' };
  // Upstream's int64 fast path: it applies when the precision check passes and the scaled value
  // fits; our parser then returns exactly its mantissa and exponent.
  if (fastPath(str)) {
    return {
      value: q.mantissa.toString(),
      scale: q.exponent,
      dec: '(*inf.Dec)<nil>',
      s: q.cached ?? '',
      format: q.format,
    };
  }
  // inf.Dec path (approximation: big.nat words as spew prints them, low word first).
  const neg = q.mantissa < 0n;
  let abs = neg ? -q.mantissa : q.mantissa;
  const words: string[] = [];
  while (abs > 0n) {
    words.push((abs & 0xffffffffffffffffn).toString());
    abs >>= 64n;
  }
  const nat = words.length === 0 ? '<nil>' : `[${words.join(' ')}]`;
  return {
    value: '0',
    scale: 0,
    dec: `(*inf.Dec){unscaled:(big.Int){neg:(bool)${neg} abs:(big.nat)${nat}} scale:(inf.Scale)${-q.exponent}}`,
    s: '',
    format: q.format,
  };
}

const decimalExponents: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const binaryExponents: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** Whether upstream ParseQuantity takes its int64Amount path for `str`. */
function fastPath(str: string): boolean {
  const { num, denom, suffix } = splitQuantityString(str);
  let precision: number;
  let scale = 0;
  let multiplier = 1n;
  if (Object.hasOwn(binaryExponents, suffix)) {
    const exponent = binaryExponents[suffix]!;
    if (denom.length > 0) return false;
    multiplier = 1n << BigInt(exponent);
    precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
  } else {
    let exponent: number;
    if (Object.hasOwn(decimalExponents, suffix)) exponent = decimalExponents[suffix]!;
    else exponent = Number(suffix.slice(1));
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  }
  if (precision < 0) return false;
  scale -= denom.length;
  if (scale < -9) return false;
  return BigInt(num + denom) * multiplier <= 2n ** 63n - 1n;
}

/** go-spew's `%#v` of a core/v1 PodTemplateSpec given as JSON. */
export function spewPodTemplateSpec(template: JsonObject): string {
  const p = new Printer();
  p.value(resolve('PodTemplateSpec', 'core'), template, false);
  return p.out;
}
