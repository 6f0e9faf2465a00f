// Shared helpers for the CEL runtime and library tests: parse, plan and evaluate in one step.
import type { CelInput, CelValue } from '@bufbuild/cel';
import { isCelList, isCelMap, isCelUint } from '@bufbuild/cel';
import { parseCel } from './parse.js';
import { newProgram, type CelEvalResult, type ProgramOptions } from './program.js';

export function evalCel(
  source: string,
  bindings: Readonly<Record<string, CelInput>> = {},
  options: ProgramOptions = {},
): CelEvalResult {
  return newProgram(parseCel(source), options).eval(bindings);
}

/** A CEL value as plain data for assertions: lists → arrays, maps → objects, uint → `${n}u`. */
export function plain(v: CelValue): unknown {
  if (isCelList(v)) return Array.from(v, plain);
  if (isCelMap(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) out[String(isCelUint(k) ? k.value : k)] = plain(x);
    return out;
  }
  if (isCelUint(v)) return `${v.value}u`;
  return v;
}
