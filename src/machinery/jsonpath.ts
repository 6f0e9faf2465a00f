/**
 * The part of client-go's util/jsonpath that CRD printer columns and scale paths use: a path such
 * as `.spec.replicas`, `.status.conditions[0].type`, `.metadata.labels['app.kubernetes.io/name']`,
 * `.items[*].name` or `.spec..image` (recursive descent), evaluated with missing keys allowed.
 * Filters (`[?(...)]`) and ranges are not supported; `parseJsonPath` refuses them.
 */
import { isJsonObject } from '../util/json.js';
import type { JsonValue } from '../util/json.js';

export type JsonPathStep =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'slice'; readonly start?: number; readonly end?: number }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'recursive' };

export class JsonPathError extends Error {}

/** Parses a path with or without the surrounding `{…}` of client-go's template syntax. */
export function parseJsonPath(path: string): JsonPathStep[] {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1).trim();
  if (p.startsWith('$')) p = p.slice(1);
  const steps: JsonPathStep[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new JsonPathError(`unrecognized JSONPath ${JSON.stringify(path)}: ${why}`);
  };
  while (i < p.length) {
    const ch = p[i]!;
    if (ch === '.') {
      if (p[i + 1] === '.') {
        steps.push({ kind: 'recursive' });
        // `..name` is recursive descent then the field: read the name as after a single dot.
        i += 1;
        if (p[i + 1] === '[') i++;
        continue;
      }
      i++;
      if (p[i] === '*') {
        steps.push({ kind: 'wildcard' });
        i++;
        continue;
      }
      let j = i;
      while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
      const name = p.slice(i, j);
      if (name === '') {
        if (j >= p.length) break; // a lone "." is the whole object
        continue;
      }
      if (/[\s(){}?@]/.test(name)) fail(`invalid field name ${JSON.stringify(name)}`);
      steps.push({ kind: 'field', name });
      i = j;
    } else if (ch === '[') {
      const close = p.indexOf(']', i);
      if (close < 0) fail('unterminated [');
      const inner = p.slice(i + 1, close).trim();
      i = close + 1;
      if (inner === '*') steps.push({ kind: 'wildcard' });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^-?\d*:-?\d*$/.test(inner)) {
        const [a, b] = inner.split(':') as [string, string];
        steps.push({
          kind: 'slice',
          ...(a !== '' ? { start: Number(a) } : {}),
          ...(b !== '' ? { end: Number(b) } : {}),
        });
      } else fail(`unsupported expression [${inner}]`);
    } else {
      // A leading name without a dot (`spec.replicas`) reads as `.spec.replicas`.
      if (steps.length === 0 && i === 0) {
        p = '.' + p;
        continue;
      }
      fail(`unexpected ${JSON.stringify(ch)}`);
    }
  }
  return steps;
}

function descendants(v: JsonValue, out: JsonValue[]): void {
  out.push(v);
  if (Array.isArray(v)) for (const e of v) descendants(e, out);
  else if (isJsonObject(v)) for (const k of Object.keys(v).sort()) descendants(v[k]!, out);
}

/** Every value the path reaches, in order; missing keys and out-of-range indexes give none. */
export function evalJsonPath(steps: readonly JsonPathStep[], root: JsonValue): JsonValue[] {
  let current: JsonValue[] = [root];
  for (const step of steps) {
    const next: JsonValue[] = [];
    for (const v of current) {
      switch (step.kind) {
        case 'field':
          if (isJsonObject(v) && Object.hasOwn(v, step.name)) next.push(v[step.name]!);
          break;
        case 'index':
          if (Array.isArray(v)) {
            const at = step.index < 0 ? v.length + step.index : step.index;
            if (at >= 0 && at < v.length) next.push(v[at]!);
          }
          break;
        case 'slice':
          if (Array.isArray(v)) {
            const norm = (n: number): number => Math.max(0, Math.min(v.length, n < 0 ? v.length + n : n));
            next.push(...v.slice(norm(step.start ?? 0), norm(step.end ?? v.length)));
          }
          break;
        case 'wildcard':
          if (Array.isArray(v)) next.push(...v);
          else if (isJsonObject(v)) for (const k of Object.keys(v).sort()) next.push(v[k]!);
          break;
        case 'recursive':
          descendants(v, next);
          break;
      }
    }
    current = next;
  }
  return current;
}

/** Go's `fmt.Print` of a float64 as jsonpath prints numbers (`%v`: shortest, exponent past 1e21). */
function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const s = String(n);
  return s.includes('e') ? s.replace(/e([+-])(\d)$/, 'e$10$2') : s;
}

/** How jsonpath's PrintResults writes one value: strings raw, objects and lists as JSON. */
export function jsonPathText(v: JsonValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumber(v);
  if (v === null) return '<nil>';
  if (typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}
