/**
 * Go-flavoured names used in upstream decode error texts: reflect type strings (`int32`,
 * `[]v1.Container`, `map[string]string`, `v1.DeploymentSpec`) and JSON value kinds.
 */
import type { Schema, SchemaRegistry } from '../schema/types.js';

/** `io.k8s.api.apps.v1.DeploymentSpec` → `v1.DeploymentSpec` (Go package name + type name). */
export function goQualifiedName(definition: string): string {
  const parts = definition.split('.');
  const name = parts[parts.length - 1] ?? definition;
  const pkg = parts[parts.length - 2];
  return pkg === undefined ? name : `${pkg}.${name}`;
}

/** `io.k8s.api.apps.v1.DeploymentSpec` → `DeploymentSpec`. */
export function goStructName(definition: string): string {
  const dot = definition.lastIndexOf('.');
  return dot < 0 ? definition : definition.slice(dot + 1);
}

/**
 * The Go type string of a schema. Named string/map types of upstream (e.g. `v1.Protocol`,
 * `v1.ResourceList`) are not in the schema model, so their underlying type is used.
 */
export function goTypeString(registry: SchemaRegistry, schema: Schema, depth = 0): string {
  if ('ref' in schema) {
    const resolved = registry.resolve(schema);
    if (resolved.type === 'object' && resolved.properties !== undefined) return goQualifiedName(schema.ref);
    if (schema.ref.endsWith('.resource.Quantity') || schema.ref.endsWith('.intstr.IntOrString')) {
      return goQualifiedName(schema.ref);
    }
    if (resolved.type === 'any' || (resolved.type === 'string' && resolved.format === 'date-time')) {
      return goQualifiedName(schema.ref);
    }
    return depth > 8 ? 'interface {}' : goTypeString(registry, resolved, depth + 1);
  }
  switch (schema.type) {
    case 'string':
      return schema.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return schema.format ?? 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'int-or-string':
      return 'intstr.IntOrString';
    case 'any':
      return 'interface {}';
    case 'array':
      return `[]${goTypeString(registry, schema.items, depth + 1)}`;
    case 'object':
      if (schema.additionalProperties === true) return 'map[string]interface {}';
      if (schema.additionalProperties !== undefined) {
        return `map[string]${goTypeString(registry, schema.additionalProperties, depth + 1)}`;
      }
      return 'struct {}';
  }
}

/** The JSON kind word Go's decoder uses in "cannot unmarshal <kind>". */
export function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}
