// The Kubernetes regex library (apiserver v0.27.16 pkg/cel/library/regex.go): `find` and
// `findAll` with RE2 semantics through re2js, Go's FindAllString rules for empty matches, and
// upstream's "Illegal regex: ..." errors. Also CEL's `matches` on re2js so that every regular
// expression in a program is RE2's.
import { celFunc, celList, celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { RE2JS } from 're2js';

const { STRING, INT, BOOL, DYN } = CelScalar;

const cache = new Map<string, RE2JS>();

/** Compiles a pattern (cached); throws re2js' error, worded as Go's regexp ("error parsing regexp: ..."). */
export function compileRegex(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (re === undefined) {
    re = RE2JS.compile(pattern);
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}

function compileOrIllegal(pattern: string): RE2JS {
  try {
    return compileRegex(pattern);
  } catch (err) {
    throw new Error(`Illegal regex: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Go regexp FindAllString: at most n matches (all when n < 0); no empty match right after a match. */
export function findAll(str: string, re: RE2JS, n: bigint): string[] {
  const out: string[] = [];
  const limit = n < 0n ? Infinity : Number(n);
  const m = re.matcher(str);
  let pos = 0;
  let prevEnd = -1;
  while (out.length < limit && pos <= str.length && m.find(pos)) {
    const start = m.start();
    const end = m.end();
    let accept = true;
    if (end === pos) {
      // An empty match: never right after the previous match; step over one rune.
      if (start === prevEnd) accept = false;
      const cp = str.codePointAt(pos);
      pos += cp === undefined ? 1 : cp > 0xffff ? 2 : 1;
    } else {
      pos = end;
    }
    prevEnd = end;
    if (accept) out.push(str.slice(start, end));
  }
  return out;
}

function find(str: string, re: RE2JS): string {
  const m = re.matcher(str);
  return m.find() ? (m.group() ?? '') : '';
}

function matches(str: string, pattern: string): boolean {
  return compileRegex(pattern).matcher(str).find();
}

export const regexLibrary: readonly CelFunc[] = [
  celMethod('find', STRING, [STRING], STRING, function (pattern) {
    return find(this, compileOrIllegal(pattern));
  }),
  celMethod('findAll', STRING, [STRING], DYN, function (pattern) {
    return celList(findAll(this, compileOrIllegal(pattern), -1n));
  }),
  celMethod('findAll', STRING, [STRING, INT], DYN, function (pattern, n) {
    return celList(findAll(this, compileOrIllegal(pattern), n));
  }),
  celMethod('matches', STRING, [STRING], BOOL, function (pattern) {
    return matches(this, pattern);
  }),
  celFunc('matches', [STRING, STRING], BOOL, (str, pattern) => matches(str, pattern)),
];
