/**
 * The CEL value of a node's data for its rules. Upstream converts lazily
 * (apiextensions-apiserver v0.27 schema/cel UnstructuredToVal): a field whose data does not fit
 * its schema (say a `format: duration` string that is no duration, which OpenAPI validation only
 * reports as Invalid and so does not block the rules) fails only the rules that read it. Our
 * conversion (../schema/values.ts) is eager, so when it fails we convert again without the object
 * fields that cannot be converted: rules that do not read them still run, rules that do see the
 * field as absent. Only when the node's own value does not fit is the conversion error returned.
 */
import type { CelInput } from '@bufbuild/cel';
import {
  isEmbeddedResource,
  schemaAdditionalProperties,
  schemaProperties,
  withTypeAndObjectMeta,
  type JsonSchema,
} from '../schema/structural.js';
import { toCelValue } from '../schema/values.js';

export type Converted = { readonly value: CelInput } | { readonly error: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `json` without the object fields (at any depth) whose data cannot be converted; undefined if `json` itself cannot. */
function convertible(json: unknown, schema: JsonSchema): { readonly json: unknown } | undefined {
  try {
    toCelValue(json, schema);
    return { json };
  } catch {
    // fall through: drop what does not fit, if this is an object
  }
  if (!isRecord(json)) return undefined;
  const s = isEmbeddedResource(schema) ? withTypeAndObjectMeta(schema) : schema;
  const props = schemaProperties(s);
  const additional = schemaAdditionalProperties(s);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json)) {
    const sub = props?.get(k) ?? (props === undefined ? additional : undefined);
    if (sub === undefined) {
      out[k] = v; // not visible to CEL anyway
      continue;
    }
    const kept = convertible(v, sub);
    if (kept !== undefined) out[k] = kept.json;
  }
  try {
    toCelValue(out, schema);
    return { json: out };
  } catch {
    return undefined;
  }
}

/** The CEL value of `json` under `schema`, dropping unconvertible fields as described above. */
export function toRuleValue(json: unknown, schema: JsonSchema): Converted {
  try {
    return { value: toCelValue(json, schema) };
  } catch (err) {
    const kept = convertible(json, schema);
    if (kept === undefined) return { error: message(err) };
    try {
      return { value: toCelValue(kept.json, schema) };
    } catch (again) {
      return { error: message(again) };
    }
  }
}
