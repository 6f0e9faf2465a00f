/**
 * Go `%#v` renderings of the few composite values metadata validation reports (owner references,
 * string slices) and the field error that carries them, so messages read like kube-apiserver's.
 * Pointer addresses cannot match upstream (they differ per process); a fixed one is used.
 */
import { FieldError, goQuote, omitValue } from '../field/errors.js';
import type { FieldPath } from '../field/errors.js';
import type { JsonValue } from '../../util/json.js';

const fakePointer = '0xc000010000';

function goString(v: JsonValue | undefined): string {
  return goQuote(typeof v === 'string' ? v : '');
}

function goBoolPointer(v: JsonValue | undefined): string {
  return typeof v === 'boolean' ? `(*bool)(${fakePointer})` : '(*bool)(nil)';
}

/** `v1.OwnerReference{APIVersion:"v1", Kind:"X", Name:"n", UID:"u", Controller:(*bool)(nil), ...}`. */
export function goOwnerReference(ref: Record<string, JsonValue | undefined>): string {
  return (
    `v1.OwnerReference{APIVersion:${goString(ref['apiVersion'])}, Kind:${goString(ref['kind'])}, ` +
    `Name:${goString(ref['name'])}, UID:${goString(ref['uid'])}, Controller:${goBoolPointer(ref['controller'])}, ` +
    `BlockOwnerDeletion:${goBoolPointer(ref['blockOwnerDeletion'])}}`
  );
}

export function goOwnerReferences(refs: readonly Record<string, JsonValue | undefined>[]): string {
  return `[]v1.OwnerReference{${refs.map(goOwnerReference).join(', ')}}`;
}

/** `[]string{"a", "b"}`. */
export function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

/**
 * An Invalid error whose bad value is already rendered Go text (printed unquoted, as upstream
 * prints structs and Stringers). Renders exactly `Invalid value: <rendered>: <detail>`.
 */
export function invalidRendered(path: FieldPath, rendered: string, detail: string): FieldError {
  return new FieldError('FieldValueInvalid', path, omitValue, `${rendered}: ${detail}`);
}
