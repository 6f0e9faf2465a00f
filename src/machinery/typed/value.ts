/**
 * JSON values as structured-merge-diff sees them: kinds, equality, the path element of a list item
 * (by list-map key, set value or index), and the validation errors its walkers report
 * (`.spec.containers: duplicate entries for key [name="a"]`).
 */
import { indexElement, keyElement, valueElement } from '../fieldpath/path-element.js';
import type { KeyField, PathElement } from '../fieldpath/path-element.js';
import { equalValues } from '../fieldpath/value.js';
import { isJsonObject } from '../../util/json.js';
import type { FieldValue } from '../fieldpath/value.js';
import type { ListAtom } from './atom.js';

export type JsonMap = Record<string, unknown>;

export function isMap(v: unknown): v is JsonMap {
  return isJsonObject(v);
}

export function isScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

export function valuesEqual(a: unknown, b: unknown): boolean {
  return equalValues(a as FieldValue, b as FieldValue);
}

/** A problem found while walking a value: where (a path string) and what. */
export class TypedError {
  path: string;
  readonly message: string;
  constructor(path: string, message: string) {
    this.path = path;
    this.message = message;
  }
  toString(): string {
    return this.path === '' ? this.message : `${this.path}: ${this.message}`;
  }
}

/** structured-merge-diff's ValidationErrors text. */
export function errorsText(errs: readonly TypedError[]): string {
  if (errs.length === 1) return errs[0]!.toString();
  return ['errors:', ...errs.map((e) => `  ${e.toString()}`)].join('\n');
}

export class TypedErrors extends Error {
  readonly errors: readonly TypedError[];
  constructor(errors: readonly TypedError[]) {
    super(errorsText(errors));
    this.errors = errors;
  }
}

/** The path element of list item `index` (its key, its value, or its index), or why not. */
export function listItemElement(list: ListAtom, index: number, item: unknown): PathElement | string {
  if (list.relationship !== 'associative') return indexElement(index);
  if (list.keys.length > 0) {
    if (item === null) return 'associative list with keys may not have a null element';
    if (!isMap(item)) return 'associative list with keys may not have non-map elements';
    const fields: KeyField[] = [];
    for (const name of list.keys) {
      if (Object.hasOwn(item, name)) {
        fields.push({ name, value: item[name] as FieldValue });
        continue;
      }
      const elem = list.elem().map;
      if (elem === undefined) {
        return `couldn't find default value for ${name}: associative list may not have non-map types`;
      }
      const def = elem.fieldDefault(name);
      if (def === undefined || def === null) {
        return `associative list with keys has an element that omits key field ${JSON.stringify(name)} (and doesn't have default value)`;
      }
      fields.push({ name, value: def as FieldValue });
    }
    return keyElement(fields);
  }
  if (isMap(item)) return "associative list without keys has an element that's a map type";
  if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
  if (item === null) return "associative list without keys has an element that's an explicit null";
  return valueElement(item as FieldValue);
}
