/** The kubelet's `$(VAR)` references in env values, commands and args. */

/** A `$(VAR)` reference to a variable whose value cannot be known. */
export class UnknownReference extends Error {}

/**
 * The kubelet's `$(VAR)` expansion of env values, command and args: a defined variable is
 * replaced, an undefined one left as written, `$$` is a `$`. A reference to a variable whose value
 * is unknowable (set from a Secret) throws UnknownReference.
 */
export function expandReferences(input: string, env: ReadonlyMap<string, string | undefined>): string {
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c !== '$' || i + 1 >= input.length) {
      out += c;
      continue;
    }
    const next = input[i + 1]!;
    if (next === '$') {
      out += '$';
      i++;
    } else if (next === '(') {
      const end = input.indexOf(')', i + 2);
      if (end < 0) {
        out += input.slice(i);
        break;
      }
      const name = input.slice(i + 2, end);
      if (env.has(name)) {
        const v = env.get(name);
        if (v === undefined) throw new UnknownReference(name);
        out += v;
      } else out += `$(${name})`;
      i = end;
    } else {
      out += `$${next}`;
      i++;
    }
  }
  return out;
}
