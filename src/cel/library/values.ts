// Comparison and equality of CEL values for the Kubernetes library functions, as cel-go v0.12.7's
// traits.Comparer (common/types: Int, Uint, Double compare across numeric types; Bool, String,
// Bytes, Duration, Timestamp compare within their type) and ref.Val Equal (through @bufbuild/cel's
// own `_==_`, which implements CEL's heterogeneous equality).
import { celEnv, isCelUint, type CelValue } from '@bufbuild/cel';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import { noSuchOverload } from './errors.js';

const equalsGroup = celEnv().funcs.find('_==_');

/** CEL equality (`a == b`); false when the types cannot be compared. */
export function celEquals(a: CelValue, b: CelValue): boolean {
  return equalsGroup?.call(0, undefined, [a, b]) === true;
}

type Numeric = { kind: 'int' | 'uint'; value: bigint } | { kind: 'double'; value: number };

function numeric(v: CelValue): Numeric | undefined {
  if (typeof v === 'bigint') return { kind: 'int', value: v };
  if (typeof v === 'number') return { kind: 'double', value: v };
  if (isCelUint(v)) return { kind: 'uint', value: v.value };
  return undefined;
}

function sign(n: number): -1 | 0 | 1 {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

function compareNumeric(a: Numeric, b: Numeric): -1 | 0 | 1 {
  if (a.kind !== 'double' && b.kind !== 'double') {
    return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  }
  const x = Number(a.value);
  const y = Number(b.value);
  if (Number.isNaN(x) || Number.isNaN(y)) throw new Error('NaN values cannot be ordered');
  return sign(x - y);
}

/** Go string comparison is bytewise over UTF-8, which orders like code points. */
function compareStrings(a: string, b: string): -1 | 0 | 1 {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const c = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (c !== 0) return sign(c);
  }
  return sign(x.length - y.length);
}

function compareBytes(a: Uint8Array, b: Uint8Array): -1 | 0 | 1 {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = a[i]! - b[i]!;
    if (c !== 0) return sign(c);
  }
  return sign(a.length - b.length);
}

/** seconds and nanos of a google.protobuf.Duration or Timestamp value, with its type name. */
export function secondsNanos(v: CelValue): { type: string; seconds: bigint; nanos: number } | undefined {
  if (!isReflectMessage(v)) return undefined;
  const type = v.desc.typeName;
  if (type !== 'google.protobuf.Duration' && type !== 'google.protobuf.Timestamp') return undefined;
  const msg = v.message as { seconds?: unknown; nanos?: unknown };
  const seconds = typeof msg.seconds === 'bigint' ? msg.seconds : 0n;
  const nanos = typeof msg.nanos === 'number' ? msg.nanos : 0;
  return { type, seconds, nanos };
}

/** traits.Comparer.Compare: -1, 0 or 1; throws "no such overload" for incomparable values. */
export function celCompare(a: CelValue, b: CelValue): -1 | 0 | 1 {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return compareNumeric(na, nb);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  const ta = secondsNanos(a);
  const tb = secondsNanos(b);
  if (ta !== undefined && tb !== undefined && ta.type === tb.type) {
    if (ta.seconds !== tb.seconds) return ta.seconds < tb.seconds ? -1 : 1;
    return sign(ta.nanos - tb.nanos);
  }
  throw noSuchOverload();
}

/** Whether a value is one of the comparable kinds (traits.Comparer). */
export function isComparable(v: CelValue): boolean {
  return (
    numeric(v) !== undefined ||
    typeof v === 'boolean' ||
    typeof v === 'string' ||
    v instanceof Uint8Array ||
    secondsNanos(v) !== undefined
  );
}
