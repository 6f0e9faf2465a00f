/**
 * `grep` as busybox and GNU grep run it on text: -v, -q, -i, -c, -x, -E, -F and -e; a basic
 * regular expression (BRE) is translated to a JavaScript one (`\(`, `\{`, `\|` groups and
 * intervals; `(`, `{`, `|`, `+`, `?` literal; POSIX classes such as `[[:space:]]`).
 */
import { ShellUnsupported } from './shell-parse.js';

export interface GrepOptions {
  readonly invert: boolean;
  readonly quiet: boolean;
  readonly ignoreCase: boolean;
  readonly count: boolean;
  readonly wholeLine: boolean;
  readonly mode: 'basic' | 'extended' | 'fixed';
  readonly patterns: readonly string[];
  readonly files: readonly string[];
}

export function parseGrepArgs(args: readonly string[]): GrepOptions {
  let invert = false;
  let quiet = false;
  let ignoreCase = false;
  let count = false;
  let wholeLine = false;
  let mode: GrepOptions['mode'] = 'basic';
  const patterns: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      rest.push(...args.slice(i + 1));
      break;
    }
    if (a === '-e') {
      const p = args[++i];
      if (p === undefined) throw new ShellUnsupported('grep -e without a pattern');
      patterns.push(p);
    } else if (/^-[a-zA-Z]+$/.test(a)) {
      for (const f of a.slice(1)) {
        if (f === 'v') invert = true;
        else if (f === 'q' || f === 's') quiet = quiet || f === 'q';
        else if (f === 'i') ignoreCase = true;
        else if (f === 'c') count = true;
        else if (f === 'x') wholeLine = true;
        else if (f === 'E') mode = 'extended';
        else if (f === 'F') mode = 'fixed';
        else throw new ShellUnsupported(`grep -${f}`);
      }
    } else rest.push(a);
  }
  if (patterns.length === 0) {
    const p = rest.shift();
    if (p === undefined) throw new ShellUnsupported('grep without a pattern');
    patterns.push(p);
  }
  return { invert, quiet, ignoreCase, count, wholeLine, mode, patterns, files: rest };
}

const posixClasses: Readonly<Record<string, string>> = {
  space: '\\s',
  digit: '0-9',
  alpha: 'a-zA-Z',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
};

/** A POSIX regular expression (basic or extended) as a JavaScript source. */
function toJs(pattern: string, basic: boolean): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '[') {
      // A bracket expression, POSIX classes inside it expanded.
      let j = i + 1;
      let body = '';
      if (pattern[j] === '^') {
        body += '^';
        j++;
      }
      if (pattern[j] === ']') {
        body += '\\]';
        j++;
      }
      while (j < pattern.length && pattern[j] !== ']') {
        const cls = /^\[:([a-z]+):\]/.exec(pattern.slice(j));
        if (cls !== null) {
          const v = posixClasses[cls[1]!];
          if (v === undefined) throw new ShellUnsupported(`grep class [:${cls[1]!}:]`);
          body += v;
          j += cls[0].length;
        } else {
          body += pattern[j] === '\\' ? '\\\\' : (pattern[j] ?? '');
          j++;
        }
      }
      out += `[${body}]`;
      i = j;
      continue;
    }
    if (basic) {
      if (c === '\\') {
        const n = pattern[++i] ?? '';
        out += '(){}|+?'.includes(n) ? n : `\\${n}`;
      } else out += '(){}|+?'.includes(c) ? `\\${c}` : c;
    } else out += c;
  }
  return out;
}

/** Runs grep over `input`: the lines to print (or their count) and the exit status. */
export function grepText(o: GrepOptions, input: string): { readonly out: string; readonly code: number } {
  const flags = o.ignoreCase ? 'i' : '';
  const matchers = o.patterns.map((p) => {
    if (o.mode === 'fixed') {
      const needle = o.ignoreCase ? p.toLowerCase() : p;
      return (line: string): boolean => {
        const hay = o.ignoreCase ? line.toLowerCase() : line;
        return o.wholeLine ? hay === needle : hay.includes(needle);
      };
    }
    let re: RegExp;
    try {
      const src = toJs(p, o.mode === 'basic');
      re = new RegExp(o.wholeLine ? `^(?:${src})$` : src, flags);
    } catch {
      throw new ShellUnsupported(`grep pattern ${p}`);
    }
    return (line: string): boolean => re.test(line);
  });
  const lines = input.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const picked = lines.filter((l) => matchers.some((m) => m(l)) !== o.invert);
  const code = picked.length > 0 ? 0 : 1;
  if (o.quiet) return { out: '', code };
  if (o.count) return { out: `${picked.length}\n`, code };
  return { out: picked.map((l) => `${l}\n`).join(''), code };
}
