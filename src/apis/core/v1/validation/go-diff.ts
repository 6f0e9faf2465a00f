/**
 * A short rendering of what changed between two structs, standing in for the go-cmp diff
 * (`cmp.Diff`) upstream appends to some immutability messages. go-cmp's exact text cannot be
 * matched (it randomises its whitespace on purpose); this keeps its shape: `-` old, `+` new.
 */
import type { JsonObject, JsonValue } from '../../../../util/json.js';
import { semanticEqual } from '../../../apps/v1/validation/semantic.js';

function upperFirst(s: string): string {
  return s.length === 0 ? s : `${s[0]!.toUpperCase()}${s.slice(1)}`;
}

function render(v: JsonValue | undefined): string {
  return v === undefined ? 'nil' : JSON.stringify(v);
}

export function structDiff(typeName: string, oldObj: JsonObject, newObj: JsonObject): string {
  const keys = [...new Set([...Object.keys(oldObj), ...Object.keys(newObj)])].sort();
  const lines = [`  ${typeName}{`];
  let same = 0;
  const flush = (): void => {
    if (same > 0) lines.push(`  \t... // ${same} identical field${same === 1 ? '' : 's'}`);
    same = 0;
  };
  for (const k of keys) {
    const a = oldObj[k];
    const b = newObj[k];
    if (semanticEqual(a, b)) {
      same++;
      continue;
    }
    flush();
    const name = upperFirst(k);
    if (a !== undefined) lines.push(`- \t${name}: ${render(a)},`);
    if (b !== undefined) lines.push(`+ \t${name}: ${render(b)},`);
  }
  flush();
  lines.push('  }');
  return `${lines.join('\n')}\n`;
}
