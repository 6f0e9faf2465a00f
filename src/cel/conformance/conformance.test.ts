// The cel-spec conformance suite through our parser and runtime, against a checked-in pass list
// (passing.txt): a listed test that fails is a regression; newly passing tests are printed (add
// them to the list; UPDATE_CEL_CONFORMANCE=1 rewrites it). Also reports @bufbuild/cel's own
// parse + plan over the same harness (both 1886 of 2297 when written). Deliberate difference:
// cel-go v0.12.7's strings extension ("''.lastIndexOf('x')" is an error there); the failures
// shared with @bufbuild/cel are features Kubernetes v1.27 does not have (optionals, math, block,
// bindings, encoders, extensions, quoted fields, strong enums).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { runConformance, type ConformanceRun } from './run.js';

const listPath = new URL('./passing.txt', import.meta.url);

function passing(run: ConformanceRun): string[] {
  return [...run.outcomes].filter(([, o]) => o.ok).map(([name]) => name);
}

describe('cel-spec conformance (evaluation)', () => {
  it('every test in passing.txt still passes', () => {
    const ours = runConformance();
    const passed = passing(ours);
    const baseline = passing(runConformance({ baseline: true }));
    console.log(
      `conformance: ours ${passed.length}/${ours.outcomes.size} passed (` +
        `${ours.skipped} type-check-only skipped); @bufbuild/cel parse+plan ${baseline.length}`,
    );
    // The acceptance bar: at or above the dependency's own rate on the same tests.
    assert.ok(
      passed.length >= baseline.length,
      `ours ${passed.length} below @bufbuild/cel's ${baseline.length} on the same tests`,
    );
    if (process.env['UPDATE_CEL_CONFORMANCE'] === '1') {
      writeFileSync(listPath, passed.sort().join('\n') + '\n');
    }
    const listed = readFileSync(listPath, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const now = new Set(passed);
    const regressions = listed.filter((name) => !now.has(name));
    const listedSet = new Set(listed);
    const newlyPassing = passed.filter((name) => !listedSet.has(name));
    if (newlyPassing.length > 0) {
      console.log(`newly passing (add to passing.txt):\n  ${newlyPassing.join('\n  ')}`);
    }
    assert.deepEqual(
      regressions.map((name) => {
        const o = ours.outcomes.get(name);
        return o && !o.ok ? `${name}: ${o.reason}` : `${name}: missing`;
      }),
      [],
    );
  });
});
