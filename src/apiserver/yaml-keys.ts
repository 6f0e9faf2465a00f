/**
 * go-yaml v2 (under sigs.k8s.io/yaml) refuses a mapping key that is itself a sequence or a
 * mapping: `yaml: invalid map key: <the key as Go's %#v>`. The yaml library would stringify such
 * a key instead (and print a process warning), so bodies are checked for them first.
 */
import { isAlias, isMap, isScalar, isSeq, visit } from 'yaml';
import type { Document, Node } from 'yaml';

/** `v` as Go's %#v prints what go-yaml decoded into an interface{}. */
function goSyntax(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  if (v instanceof Map) {
    const entries = [...v.entries()].map(([k, val]) => `${goSyntax(k)}:${goSyntax(val)}`).sort();
    return `map[interface {}]interface {}{${entries.join(', ')}}`;
  }
  if (typeof v === 'object') {
    const entries = Object.entries(v)
      .map(([k, val]) => `${goSyntax(k)}:${goSyntax(val)}`)
      .sort();
    return `map[interface {}]interface {}{${entries.join(', ')}}`;
  }
  return typeof v === 'symbol' ? v.toString() : 'interface {}(nil)';
}

/** The go-yaml error of the first collection used as a mapping key, if any. */
export function invalidMapKey(doc: Document): string | undefined {
  let found: string | undefined;
  visit(doc, {
    Pair(_key, pair) {
      const key = pair.key as Node | null;
      if (key !== null && (isMap(key) || isSeq(key) || (isAlias(key) && !isScalar(key.resolve(doc))))) {
        const value: unknown = isAlias(key)
          ? key.resolve(doc)?.toJS(doc, { mapAsMap: true })
          : key.toJS(doc, { mapAsMap: true });
        found = `yaml: invalid map key: ${goSyntax(value)}`;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}
