/**
 * fieldpath.ExtractFieldPathAsString for the pod's metadata, shared by a container's environment
 * (fieldRef) and downward API volumes: name, namespace, uid, one label or annotation by key, and
 * (for volumes) all labels or annotations as `key="value"` lines.
 */
import type { JsonObject } from '../../util/json.js';
import { objAt, stringMap, strAt } from '../json.js';

/** Go's strconv.Quote for the strings labels and annotations hold. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** fieldpath.FormatMap: `key="value"` lines in key order. */
export function formatMap(m: Readonly<Record<string, string>>): string {
  return Object.keys(m)
    .sort()
    .map((k) => `${k}=${goQuote(m[k] ?? '')}`)
    .join('\n');
}

/** The value of a metadata field path; undefined when the path is not a metadata one. */
export function metadataFieldPath(pod: JsonObject, path: string): string | undefined {
  const meta = objAt(pod, 'metadata');
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (m !== null) return stringMap(meta, m[1]!)[m[2]!] ?? '';
  switch (path) {
    case 'metadata.annotations':
      return formatMap(stringMap(meta, 'annotations'));
    case 'metadata.labels':
      return formatMap(stringMap(meta, 'labels'));
    case 'metadata.name':
      return strAt(meta, 'name') ?? '';
    case 'metadata.namespace':
      return strAt(meta, 'namespace') ?? '';
    case 'metadata.uid':
      return strAt(meta, 'uid') ?? '';
    default:
      return undefined;
  }
}
