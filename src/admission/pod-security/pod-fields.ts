/**
 * Reading the fields the checks look at from a pod's JSON, with Go's zero values for what is
 * absent: a missing or null pointer field is unset, a missing string is '', a missing list empty.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../util/json.js';

/** What the checks read of a pod's (or pod template's) metadata. */
export interface PodMetadata {
  readonly name: string;
  readonly annotations: Readonly<Record<string, string>>;
}

const noAnnotations: Readonly<Record<string, string>> = Object.freeze({});
const noItems: readonly JsonValue[] = Object.freeze([]);

export function podMetadata(meta: JsonValue | undefined): PodMetadata {
  if (!isJsonObject(meta)) return { name: '', annotations: noAnnotations };
  const raw = meta['annotations'];
  let annotations = noAnnotations;
  if (isJsonObject(raw)) {
    const a: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw)) if (typeof v === 'string') a[k] = v;
    annotations = a;
  }
  return { name: stringField(meta, 'name'), annotations };
}

/** A nested object, or undefined when absent or null (a nil pointer). */
export function objectField(o: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = o?.[key];
  return isJsonObject(v) ? v : undefined;
}

export function arrayField(o: JsonObject | undefined, key: string): readonly JsonValue[] {
  const v = o?.[key];
  return Array.isArray(v) ? v : noItems;
}

export function stringField(o: JsonObject | undefined, key: string): string {
  const v = o?.[key];
  return typeof v === 'string' ? v : '';
}

/** A pointer field's value: set when present and not null. */
export function isSet(o: JsonObject | undefined, key: string): boolean {
  const v = o?.[key];
  return v !== undefined && v !== null;
}

/** The strings of a list field (capabilities, for one). */
export function stringsField(o: JsonObject | undefined, key: string): string[] {
  return arrayField(o, key).map((v) => (typeof v === 'string' ? v : ''));
}

/** The objects of a list field (containers, volumes, ports). */
export function objectsField(o: JsonObject | undefined, key: string): JsonObject[] {
  return arrayField(o, key).filter(isJsonObject);
}

/** Every container of the pod: init containers, containers, then ephemeral containers. */
export function visitContainers(spec: JsonObject, visit: (container: JsonObject) => void): void {
  for (const c of objectsField(spec, 'initContainers')) visit(c);
  for (const c of objectsField(spec, 'containers')) visit(c);
  for (const c of objectsField(spec, 'ephemeralContainers')) visit(c);
}

export function containerName(c: JsonObject): string {
  return stringField(c, 'name');
}

export function containerSecurityContext(c: JsonObject): JsonObject | undefined {
  return objectField(c, 'securityContext');
}

export function podSecurityContext(spec: JsonObject): JsonObject | undefined {
  return objectField(spec, 'securityContext');
}

/** `spec.os.name: windows` (the restricted checks exempt such pods from v1.25). */
export function isWindowsPod(spec: JsonObject): boolean {
  return stringField(objectField(spec, 'os'), 'name') === 'windows';
}
