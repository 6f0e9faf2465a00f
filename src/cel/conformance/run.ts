// Runs the cel-spec conformance data shipped with @bufbuild/cel-spec (the "core" suite that
// @bufbuild/cel's own conformance.test.ts runs) through OUR parseCel + newProgram. Only
// evaluation is compared; tests that expect just a type (typedResult) or only checking are
// skipped, as we do not type-check here.
import { celEnv, celError, isCelError, parse, plan, type CelResult } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { create, createRegistry, equals, type Registry } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import { getTestRegistry } from '@bufbuild/cel-spec/testdata/registry.js';
import {
  getConformanceSuite,
  type IncrementalTest,
  type IncrementalTestSuite,
} from '@bufbuild/cel-spec/testdata/tests.js';
import type { CelInput } from '@bufbuild/cel';
import { kubernetesFunctions } from '../runtime/environment.js';
import { parseCel } from '../runtime/parse.js';
import { newProgram } from '../runtime/program.js';
import { libraryRegistry } from '../library/types.js';
import { sortMaps, toCelInput, toValue } from './values.js';

export type Outcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export interface ConformanceRun {
  /** Test name (suite path joined with "/") → outcome, for evaluated tests. */
  readonly outcomes: ReadonlyMap<string, Outcome>;
  /** Type-check-only tests, not run. */
  readonly skipped: number;
}

type Runner = (test: IncrementalTest, registry: Registry) => Outcome;

function compare(result: CelResult, tc: IncrementalTest['original'], registry: Registry): Outcome {
  const matcher = tc.resultMatcher;
  switch (matcher.case) {
    case 'evalError':
    case 'anyEvalErrors':
      return isCelError(result) ? { ok: true } : { ok: false, reason: 'expected an error' };
    case undefined:
      return result === true ? { ok: true } : { ok: false, reason: 'expected true' };
    case 'value': {
      if (isCelError(result)) return { ok: false, reason: `error: ${result.message}` };
      const actual = create(ValueSchema, toValue(result));
      const expected = matcher.value;
      sortMaps(actual);
      sortMaps(expected);
      return equals(ValueSchema, actual, expected, { registry, unpackAny: true })
        ? { ok: true }
        : { ok: false, reason: 'value differs' };
    }
    default:
      return { ok: false, reason: `unsupported matcher ${matcher.case}` };
  }
}

function bindingsOf(tc: IncrementalTest['original'], registry: Registry): Record<string, CelInput> {
  const bindings: Record<string, CelInput> = {};
  for (const [k, v] of Object.entries(tc.bindings)) {
    if (v.kind.case !== 'value') throw new Error(`binding kind ${String(v.kind.case)}`);
    bindings[k] = toCelInput(v.kind.value, registry);
  }
  return bindings;
}

/** @bufbuild/cel's own parse + plan (with its strings extension), for comparison. */
const runBaseline: Runner = (test, registry) => {
  const tc = test.original;
  const env = celEnv({ registry, namespace: tc.container, funcs: strings });
  return compare(plan(env, parse(tc.expr))(bindingsOf(tc, registry)), tc, registry);
};

const runOne: Runner = (test, registry) => {
  const tc = test.original;
  const environment = celEnv({
    registry,
    namespace: tc.container,
    funcs: [...strings, ...kubernetesFunctions],
  });
  let parsed;
  try {
    parsed = parseCel(tc.expr);
  } catch (err) {
    return { ok: false, reason: `parse: ${err instanceof Error ? err.message : String(err)}` };
  }
  const program = newProgram(parsed, { environment, container: tc.container, optimize: false });
  const result = program.eval(bindingsOf(tc, registry));
  return compare('error' in result ? celError(result.error.message) : result.value, tc, registry);
};

function walk(
  run: Runner,
  suite: IncrementalTestSuite,
  prefix: readonly string[],
  registry: Registry,
  outcomes: Map<string, Outcome>,
  counts: { skipped: number },
): void {
  for (const s of suite.suites) walk(run, s, [...prefix, s.name], registry, outcomes, counts);
  for (const t of suite.tests) {
    if (t.original.resultMatcher.case === 'typedResult' || t.original.checkOnly) {
      counts.skipped++;
      continue;
    }
    const base = [...prefix, t.name].join('/');
    let name = base;
    for (let n = 2; outcomes.has(name); n++) name = `${base}#${n}`;
    let outcome: Outcome;
    try {
      outcome = run(t, registry);
    } catch (err) {
      outcome = { ok: false, reason: `threw: ${err instanceof Error ? err.message : String(err)}` };
    }
    outcomes.set(name, outcome);
  }
}

/** Runs the suite through ours, or with `baseline` through @bufbuild/cel's own parse + plan. */
export function runConformance(options: { baseline?: boolean } = {}): ConformanceRun {
  const registry = createRegistry(getTestRegistry(), libraryRegistry);
  const outcomes = new Map<string, Outcome>();
  const counts = { skipped: 0 };
  const suite = getConformanceSuite();
  walk(options.baseline ? runBaseline : runOne, suite, [suite.name], registry, outcomes, counts);
  return { outcomes, skipped: counts.skipped };
}
