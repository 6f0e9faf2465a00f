/**
 * CEL types as the type checker sees them: the shapes of cel-spec's checked `Type` message
 * (cel/expr/checked.proto) that Kubernetes' environment can produce, with cel-go v0.12.7's
 * formatting (checker/types.go FormatCheckedType) and equality (proto.Equal on the message).
 */

export type PrimitiveName = 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes';
export type WellKnownName = 'any' | 'timestamp' | 'duration';

export type CheckedType =
  /**
   * cel-go's nil *Type: what a node reads as when checking left it untyped (a member call of an
   * undeclared function). Assignable only to type parameters; printed as `<nil>`.
   */
  | { readonly kind: 'unknown' }
  | { readonly kind: 'dyn' }
  | { readonly kind: 'error' }
  | { readonly kind: 'null' }
  | { readonly kind: 'primitive'; readonly name: PrimitiveName }
  | { readonly kind: 'wellKnown'; readonly name: WellKnownName }
  | { readonly kind: 'list'; readonly elem: CheckedType }
  | { readonly kind: 'map'; readonly key: CheckedType; readonly value: CheckedType }
  | { readonly kind: 'object'; readonly name: string }
  /** `type` with no parameter is the type of types; `type(T)` is the type of the value T. */
  | { readonly kind: 'type'; readonly type: CheckedType | undefined }
  | { readonly kind: 'typeParam'; readonly name: string }
  | {
      readonly kind: 'function';
      readonly result: CheckedType;
      readonly args: readonly CheckedType[];
    };

export const UNKNOWN: CheckedType = { kind: 'unknown' };
export const DYN: CheckedType = { kind: 'dyn' };
export const ERROR: CheckedType = { kind: 'error' };
export const NULL: CheckedType = { kind: 'null' };
export const INT: CheckedType = { kind: 'primitive', name: 'int' };
export const UINT: CheckedType = { kind: 'primitive', name: 'uint' };
export const DOUBLE: CheckedType = { kind: 'primitive', name: 'double' };
export const BOOL: CheckedType = { kind: 'primitive', name: 'bool' };
export const STRING: CheckedType = { kind: 'primitive', name: 'string' };
export const BYTES: CheckedType = { kind: 'primitive', name: 'bytes' };
export const ANY: CheckedType = { kind: 'wellKnown', name: 'any' };
export const TIMESTAMP: CheckedType = { kind: 'wellKnown', name: 'timestamp' };
export const DURATION: CheckedType = { kind: 'wellKnown', name: 'duration' };

export function listOf(elem: CheckedType): CheckedType {
  return { kind: 'list', elem };
}
export function mapOf(key: CheckedType, value: CheckedType): CheckedType {
  return { kind: 'map', key, value };
}
export function objectOf(name: string): CheckedType {
  return { kind: 'object', name };
}
export function typeOf(type: CheckedType | undefined): CheckedType {
  return { kind: 'type', type };
}
export function typeParam(name: string): CheckedType {
  return { kind: 'typeParam', name };
}
export function functionOf(result: CheckedType, args: readonly CheckedType[]): CheckedType {
  return { kind: 'function', result, args };
}

/** cel-go's FormatCheckedType: `int`, `list(string)`, `map(string, dyn)`, `type(int)`, `!error!`. */
export function formatType(t: CheckedType): string {
  switch (t.kind) {
    case 'unknown':
      return '<nil>';
    case 'dyn':
      return 'dyn';
    case 'error':
      return '!error!';
    case 'null':
      return 'null';
    case 'primitive':
    case 'wellKnown':
      return t.name;
    case 'list':
      return `list(${formatType(t.elem)})`;
    case 'map':
      return `map(${formatType(t.key)}, ${formatType(t.value)})`;
    case 'object':
      return t.name;
    case 'type':
      return t.type === undefined ? 'type' : `type(${formatType(t.type)})`;
    case 'typeParam':
      return t.name;
    case 'function':
      return formatFunction(t.result, t.args, false);
  }
}

/** cel-go's formatFunction (checker/errors.go): `(int, string) -> bool`, or `int.(string)` for members. */
export function formatFunction(
  result: CheckedType | undefined,
  args: readonly CheckedType[],
  isInstance: boolean,
): string {
  let out = '';
  let rest = args;
  if (isInstance && args.length > 0) {
    const [target, ...others] = args;
    out += `${formatType(target as CheckedType)}.`;
    rest = others;
  }
  out += `(${rest.map(formatType).join(', ')})`;
  if (result !== undefined) out += ` -> ${formatType(result)}`;
  return out;
}

const PROTO_PRIMITIVE: Record<PrimitiveName, string> = {
  int: 'INT64',
  uint: 'UINT64',
  double: 'DOUBLE',
  bool: 'BOOL',
  string: 'STRING',
  bytes: 'BYTES',
};

/**
 * The compact protobuf text form Go prints for a `%s` of a Type message; cel-go v0.12.7 uses it in
 * "type '...' does not support field selection" (e.g. `primitive:INT64`).
 */
export function protoText(t: CheckedType): string {
  switch (t.kind) {
    case 'unknown':
      return '<nil>';
    case 'dyn':
      return 'dyn:{}';
    case 'error':
      return 'error:{}';
    case 'null':
      return 'null:NULL_VALUE';
    case 'primitive':
      return `primitive:${PROTO_PRIMITIVE[t.name]}`;
    case 'wellKnown':
      return `well_known:${t.name.toUpperCase()}`;
    case 'list':
      return `list_type:{elem_type:{${protoText(t.elem)}}}`;
    case 'map':
      return `map_type:{key_type:{${protoText(t.key)}} value_type:{${protoText(t.value)}}}`;
    case 'object':
      return `message_type:${JSON.stringify(t.name)}`;
    case 'type':
      return t.type === undefined ? 'type:{}' : `type:{${protoText(t.type)}}`;
    case 'typeParam':
      return `type_param:${JSON.stringify(t.name)}`;
    case 'function':
      return `function:{result_type:{${protoText(t.result)}}${t.args.map((a) => ` arg_types:{${protoText(a)}}`).join('')}}`;
  }
}

/** Structural equality, as proto.Equal on two Type messages. */
export function typeEquals(a: CheckedType, b: CheckedType): boolean {
  if (a === b) return true;
  switch (a.kind) {
    case 'unknown':
    case 'dyn':
    case 'error':
    case 'null':
      return b.kind === a.kind;
    case 'primitive':
    case 'wellKnown':
    case 'object':
    case 'typeParam':
      return b.kind === a.kind && b.name === a.name;
    case 'list':
      return b.kind === 'list' && typeEquals(a.elem, b.elem);
    case 'map':
      return b.kind === 'map' && typeEquals(a.key, b.key) && typeEquals(a.value, b.value);
    case 'type':
      if (b.kind !== 'type') return false;
      if (a.type === undefined || b.type === undefined) return a.type === b.type;
      return typeEquals(a.type, b.type);
    case 'function':
      return (
        b.kind === 'function' &&
        typeEquals(a.result, b.result) &&
        a.args.length === b.args.length &&
        a.args.every((x, i) => typeEquals(x, b.args[i] as CheckedType))
      );
  }
}

/** cel-go's isDyn: DYN or the well-known `any`. */
export function isDyn(t: CheckedType): boolean {
  return t.kind === 'dyn' || (t.kind === 'wellKnown' && t.name === 'any');
}

export function isDynOrError(t: CheckedType): boolean {
  return t.kind === 'error' || isDyn(t);
}
