/**
 * kubectl 1.27 `api-resources -o wide` and `api-versions` against nanokube equal the lists a real
 * kube-apiserver printed, with the server's default flags and with the seed
 * items' alpha group-versions and gates on. The reference is a v1.28.7 server; the few places where
 * v1.27 differs are applied to it here, each named.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lines } from './support/kubectl-runner.js';
import { repoRoot } from './support/nanokube-process.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const refRoot = join(repoRoot, '../shared/reference/kube-apiserver-v1.28.7');
const skip =
  kubectlSkip !== false
    ? kubectlSkip
    : existsSync(refRoot)
      ? false
      : `reference data not present at ${refRoot}`;

const alphaFlags = [
  '--runtime-config=api/alpha=true',
  '--feature-gates=ClusterTrustBundle=true,ValidatingAdmissionPolicy=true,MultiCIDRServiceAllocator=true,MultiCIDRRangeAllocator=true,DynamicResourceAllocation=true',
];

/** v1.27 where v1.28 differs: apiVersion of a resource (by NAME), and group-versions added/removed. */
interface Adjustments {
  readonly apiVersionOf: Readonly<Record<string, string>>;
  readonly addVersions: readonly string[];
  readonly removeVersions: readonly string[];
}

/** SelfSubjectReview is v1beta1 in v1.27 (v1 came in v1.28). */
const defaults: Adjustments = {
  apiVersionOf: { selfsubjectreviews: 'authentication.k8s.io/v1beta1' },
  addVersions: ['authentication.k8s.io/v1beta1'],
  removeVersions: [],
};

/** ...and ValidatingAdmissionPolicy is v1alpha1 only (v1beta1 came in v1.28). */
const alpha: Adjustments = {
  apiVersionOf: {
    ...defaults.apiVersionOf,
    validatingadmissionpolicies: 'admissionregistration.k8s.io/v1alpha1',
    validatingadmissionpolicybindings: 'admissionregistration.k8s.io/v1alpha1',
  },
  addVersions: defaults.addVersions,
  removeVersions: ['admissionregistration.k8s.io/v1beta1'],
};

/** The rows of an `api-resources -o wide` table, cut at the header's column starts. */
function rows(table: string): string[][] {
  const [header, ...rest] = table.split('\n').filter((l) => l.trim() !== '');
  const starts = [...header!.matchAll(/\S+/g)].map((m) => m.index);
  return rest.map((line) => starts.map((s, i) => line.slice(s, starts[i + 1]).trim()));
}

function referenceVersions(dir: string): string[] {
  const core = JSON.parse(readFileSync(join(refRoot, dir, 'discovery/api.json'), 'utf8')) as {
    versions: string[];
  };
  const apis = JSON.parse(readFileSync(join(refRoot, dir, 'discovery/apis.json'), 'utf8')) as {
    groups: { versions: { groupVersion: string }[] }[];
  };
  return [...core.versions, ...apis.groups.flatMap((g) => g.versions.map((v) => v.groupVersion))];
}

function suite(title: string, dir: string, adjust: Adjustments, args: readonly string[]): void {
  describe(title, { skip }, () => {
    const s = kubectlSession({ args });

    it('api-resources -o wide equals the reference, row by row', async () => {
      const want = rows(readFileSync(join(refRoot, dir, 'api-resources.txt'), 'utf8')).map((r) => {
        const v = adjust.apiVersionOf[r[0]!];
        return v === undefined ? r : [r[0]!, r[1]!, v, ...r.slice(3)];
      });
      const got = rows(await s.ok(['api-resources', '-o', 'wide']));
      const key = (r: string[]): string => `${r[2]} ${r[0]}`;
      assert.deepEqual(got.map(key).sort(), want.map(key).sort(), 'the same resources');
      const wanted = new Map(want.map((r) => [key(r), r]));
      for (const r of got) assert.deepEqual(r, wanted.get(key(r)), key(r));
    });

    it('api-versions equals the reference', async () => {
      const want = [
        ...referenceVersions(dir).filter((v) => !adjust.removeVersions.includes(v)),
        ...adjust.addVersions,
      ].sort();
      assert.deepEqual(lines(await s.ok(['api-versions'])), want);
    });

    itStopsCleanly(s);
  });
}

suite('kubectl api-resources/api-versions: default flags', 'default', defaults, []);
suite('kubectl api-resources/api-versions: seed alpha items on', 'alpha-gates-on', alpha, alphaFlags);
