/**
 * "for every kind served, the published OpenAPI (names, types, required,
 * list/map extensions, patch strategies) matches the reference field by field; descriptions
 * excluded".
 *
 * Boots the server twice, with default flags and with the alpha group-versions and gates of the
 * reference's `alpha-gates-on` capture, and compares what it publishes with the reference
 * kube-apiserver's documents (../shared/reference/kube-apiserver-v1.28.7):
 *
 * - /openapi/v2: every definition (property names, types, formats, enums, required lists, items,
 *   additionalProperties, $refs, every x-kubernetes-* extension, group-version-kinds, unions) and
 *   every path of the group-versions served (operations, operationIds, parameters and where they
 *   sit, consumes/produces, responses, x-kubernetes-action, group-version-kinds, tags);
 * - /openapi/v3: the index's documents, and in each its component schemas (defaults included), its
 *   paths, request bodies, responses and security schemes.
 *
 * Descriptions are ours and are left out. Two representation choices are normalised away: the v2
 * reference shares repeated parameters through `#/parameters/<name>-<hash>` (resolved before
 * comparing), and v3 wraps a `$ref` in `allOf` only to give it a description (a lone
 * `allOf: [{$ref}]` compares as the `$ref`).
 *
 * The reference is v1.28; nanokube is v1.27. Every difference that is allowed is listed below with
 * its reason, and each listed difference must still occur (a stale entry fails the last test).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { v127Gates } from '../../src/machinery/features.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const refRoot = join(process.cwd(), '../shared/reference/kube-apiserver-v1.28.7');
const skip = existsSync(refRoot)
  ? false
  : `reference data absent (${refRoot}); this test runs inside the nanokube workspace only`;

// ---- allowed differences --------------------------------------------------------------------

/**
 * Schema locations (`<definition>[/<json path>]`, a prefix) where v1.27 and the v1.28 reference
 * differ. `ref` = only the reference has it, `ours` = only we have it, `differs` = both, unequal.
 */
const allowedSchemaDiffs: readonly (readonly [string, 'ref' | 'ours' | 'differs', string])[] = [
  // core/v1
  ['io.k8s.api.core.v1.Container/properties/restartPolicy', 'ref', 'sidecar containers: v1.28'],
  ['io.k8s.api.core.v1.EphemeralContainer/properties/restartPolicy', 'ref', 'sidecar containers: v1.28'],
  ['io.k8s.api.core.v1.PodStatus/properties/hostIPs', 'ref', 'PodStatus.hostIPs: v1.28'],
  ['io.k8s.api.core.v1.HostIP', 'ref', 'PodStatus.hostIPs: v1.28'],
  ['io.k8s.api.core.v1.PodStatus/properties/resourceClaimStatuses', 'ref', 'DRA claim statuses: v1.28'],
  ['io.k8s.api.core.v1.PodResourceClaimStatus', 'ref', 'DRA claim statuses: v1.28'],
  [
    'io.k8s.api.core.v1.PersistentVolumeClaimStatus/properties/allocatedResourceStatuses',
    'ref',
    'v1.28 replaced resizeStatus with allocatedResourceStatuses',
  ],
  [
    'io.k8s.api.core.v1.PersistentVolumeClaimStatus/properties/resizeStatus',
    'ours',
    'v1.27 has resizeStatus (removed in v1.28)',
  ],
  [
    'io.k8s.api.core.v1.PersistentVolumeStatus/properties/lastPhaseTransitionTime',
    'ref',
    'PersistentVolumeLastPhaseTransitionTime: v1.28',
  ],
  // batch/v1
  ['io.k8s.api.batch.v1.JobSpec/properties/backoffLimitPerIndex', 'ref', 'JobBackoffLimitPerIndex: v1.28'],
  ['io.k8s.api.batch.v1.JobSpec/properties/maxFailedIndexes', 'ref', 'JobBackoffLimitPerIndex: v1.28'],
  ['io.k8s.api.batch.v1.JobStatus/properties/failedIndexes', 'ref', 'JobBackoffLimitPerIndex: v1.28'],
  ['io.k8s.api.batch.v1.JobSpec/properties/podReplacementPolicy', 'ref', 'JobPodReplacementPolicy: v1.28'],
  ['io.k8s.api.batch.v1.JobStatus/properties/terminating', 'ref', 'JobPodReplacementPolicy: v1.28'],
  [
    'io.k8s.api.batch.v1.PodFailurePolicyRule/properties/action/enum',
    'differs',
    'the FailIndex action comes with JobBackoffLimitPerIndex in v1.28',
  ],
  // flowcontrol v1beta2/v1beta3
  [
    'io.k8s.api.flowcontrol.v1beta2.PriorityLevelConfigurationSpec/properties/exempt',
    'ref',
    'exempt priority level configuration: v1.28',
  ],
  [
    'io.k8s.api.flowcontrol.v1beta2.PriorityLevelConfigurationSpec/x-kubernetes-unions',
    'differs',
    'the union gains the v1.28 exempt member',
  ],
  ['io.k8s.api.flowcontrol.v1beta2.ExemptPriorityLevelConfiguration', 'ref', 'v1.28'],
  [
    'io.k8s.api.flowcontrol.v1beta3.PriorityLevelConfigurationSpec/properties/exempt',
    'ref',
    'exempt priority level configuration: v1.28',
  ],
  [
    'io.k8s.api.flowcontrol.v1beta3.PriorityLevelConfigurationSpec/x-kubernetes-unions',
    'differs',
    'the union gains the v1.28 exempt member',
  ],
  ['io.k8s.api.flowcontrol.v1beta3.ExemptPriorityLevelConfiguration', 'ref', 'v1.28'],
  // networking.k8s.io/v1: NetworkPolicy.status existed from v1.24 to v1.27 (removed in v1.28).
  ['io.k8s.api.networking.v1.NetworkPolicy/properties/status', 'ours', 'NetworkPolicyStatus: v1.24-v1.27'],
  ['io.k8s.api.networking.v1.NetworkPolicyStatus', 'ours', 'NetworkPolicyStatus: v1.24-v1.27'],
  // apiextensions.k8s.io/v1
  [
    'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule/properties/fieldPath',
    'ref',
    'ValidationRule.fieldPath: v1.28',
  ],
  [
    'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule/properties/reason',
    'ref',
    'ValidationRule.reason: v1.28',
  ],
  // authentication.k8s.io: SelfSubjectReview is v1beta1 in v1.27, v1 from v1.28.
  ['io.k8s.api.authentication.v1.SelfSubjectReview', 'ref', 'SelfSubjectReview v1: v1.28'],
  ['io.k8s.api.authentication.v1.SelfSubjectReviewStatus', 'ref', 'SelfSubjectReview v1: v1.28'],
  ['io.k8s.api.authentication.v1beta1.SelfSubjectReview', 'ours', 'SelfSubjectReview is v1beta1 in v1.27'],
  [
    'io.k8s.api.authentication.v1beta1.SelfSubjectReviewStatus',
    'ours',
    'SelfSubjectReview is v1beta1 in v1.27',
  ],
  // admissionregistration.k8s.io (alpha-gates-on only)
  ['io.k8s.api.admissionregistration.v1beta1.', 'ref', 'ValidatingAdmissionPolicy v1beta1: v1.28'],
  ['io.k8s.api.admissionregistration.v1alpha1.Variable', 'ref', 'VAP variables: v1.28'],
  [
    'io.k8s.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicySpec/properties/variables',
    'ref',
    'VAP variables: v1.28',
  ],
  [
    'io.k8s.api.admissionregistration.v1alpha1.ParamRef/properties/parameterNotFoundAction',
    'ref',
    'VAP param selectors: v1.28',
  ],
  [
    'io.k8s.api.admissionregistration.v1alpha1.ParamRef/properties/selector',
    'ref',
    'VAP param selectors: v1.28',
  ],
];

/** Per-document schema sets: definitions a v3 document reaches only through an allowed difference. */
const allowedDocumentSchemas: readonly (readonly [string, string, 'ref' | 'ours', string])[] = [
  [
    'apis/networking.k8s.io/v1',
    'io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
    'ours',
    'reached through the v1.27 NetworkPolicyStatus.conditions',
  ],
];

/** Paths (v2 and v3) that only one side publishes. */
const allowedPathDiffs: readonly (readonly [string, 'ref' | 'ours', string])[] = [
  ['/apis/authentication.k8s.io/v1/selfsubjectreviews', 'ref', 'SelfSubjectReview v1: v1.28'],
];

/** Group-versions (and non-resource documents) only one side publishes. */
const allowedGroupVersionDiffs: readonly (readonly [string, 'ref' | 'ours', string])[] = [
  ['apis/authentication.k8s.io/v1beta1', 'ours', 'SelfSubjectReview is v1beta1 in v1.27'],
  ['apis/admissionregistration.k8s.io/v1beta1', 'ref', 'ValidatingAdmissionPolicy v1beta1: v1.28'],
  // Non-resource endpoints nanokube does not serve: node log files.
  ['logs', 'ref', 'kube-apiserver /logs'],
];

const used = new Set<string>();

// ---- JSON helpers ---------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObj = { [k: string]: Json };

function isObj(v: Json | undefined): v is JsonObj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function obj(v: Json | undefined, what: string): JsonObj {
  assert.ok(isObj(v), `${what}: expected an object`);
  return v;
}

function readJson(path: string): JsonObj {
  return obj(JSON.parse(readFileSync(path, 'utf8')) as Json, path);
}

/**
 * Drops descriptions, resolves the v2 reference's shared `#/parameters/...`, and turns a lone
 * `allOf: [{$ref}]` (v3's way to describe a reference) back into the `$ref`.
 */
function normalize(v: Json, sharedParams: JsonObj = {}): Json {
  if (Array.isArray(v)) return v.map((x) => normalize(x, sharedParams));
  if (!isObj(v)) return v;
  const r = v.$ref;
  if (typeof r === 'string' && r.startsWith('#/parameters/')) {
    return normalize(obj(sharedParams[r.slice('#/parameters/'.length)], r), sharedParams);
  }
  const out: JsonObj = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'description') out[k] = normalize(x, sharedParams);
  const allOf = out.allOf;
  if (Array.isArray(allOf) && allOf.length === 1 && isObj(allOf[0]) && Object.keys(allOf[0]).length === 1) {
    delete out.allOf;
    Object.assign(out, allOf[0]);
  }
  return out;
}

/** JSON text with object keys sorted (key order is not compared; array order is). */
function canonical(v: Json | undefined): string {
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

function show(v: Json | undefined): string {
  const s = canonical(v);
  return s.length > 160 ? `${s.slice(0, 160)}…` : s;
}

/** Every difference between two normalised values, as `location: what`. */
function diff(ours: Json | undefined, ref: Json | undefined, at: string, out: string[]): void {
  if (isObj(ours) && isObj(ref)) {
    for (const k of new Set([...Object.keys(ours), ...Object.keys(ref)])) {
      if (!(k in ours)) out.push(`${at}/${k}: only in reference ${show(ref[k])}`);
      else if (!(k in ref)) out.push(`${at}/${k}: only in ours ${show(ours[k])}`);
      else diff(ours[k], ref[k], `${at}/${k}`, out);
    }
    return;
  }
  if (canonical(ours) !== canonical(ref)) {
    out.push(`${at}: differs: ours ${show(ours)}, reference ${show(ref)}`);
  }
}

/** Keeps the differences not explained by an allowed entry (and records which entries were used). */
function unexplained(diffs: readonly string[]): string[] {
  return diffs.filter((d) => {
    const m = /^(?:definitions|components\/schemas)\/(.*?): (only in reference|only in ours|differs)/.exec(d);
    if (m === null) return true;
    const [, location, kind] = m;
    const side = kind === 'only in reference' ? 'ref' : kind === 'only in ours' ? 'ours' : 'differs';
    const hit = allowedSchemaDiffs.find(
      ([prefix, s]) =>
        s === side &&
        (location === prefix || location!.startsWith(prefix.endsWith('.') ? prefix : `${prefix}/`)),
    );
    if (hit === undefined) return true;
    used.add(`schema ${hit[0]}`);
    return false;
  });
}

function allowedSide<T extends readonly [string, ...unknown[]]>(
  list: readonly T[],
  key: string,
  side: 'ref' | 'ours',
  label: string,
  match: (entry: T) => boolean = (e) => e[0] === key,
): boolean {
  const hit = list.find((e) => match(e) && e.includes(side));
  if (hit !== undefined) used.add(`${label} ${hit[0]}${hit.length > 3 ? ` ${String(hit[1])}` : ''}`);
  return hit !== undefined;
}

/** Compares two sets of named schemas (v2 definitions or v3 component schemas). */
function compareSchemas(ours: JsonObj, ref: JsonObj, root: string, doc: string, problems: string[]): void {
  const diffs: string[] = [];
  for (const name of new Set([...Object.keys(ours), ...Object.keys(ref)])) {
    const where = `${root}/${name}`;
    if (!(name in ours) || !(name in ref)) {
      const side = name in ours ? 'ours' : 'ref';
      const perDoc = allowedSide(
        allowedDocumentSchemas,
        name,
        side,
        'document',
        (e) => e[0] === doc && e[1] === name,
      );
      if (!perDoc) diffs.push(`${where}: ${side === 'ours' ? 'only in ours' : 'only in reference'}`);
      continue;
    }
    diff(normalize(ours[name]!), normalize(ref[name]!), where, diffs);
  }
  problems.push(...unexplained(diffs).map((d) => `${doc}: ${d}`));
}

/** Compares the operations of two path tables (v2 `paths` or a v3 document's `paths`). */
function comparePaths(
  ours: JsonObj,
  ref: JsonObj,
  sharedParams: JsonObj,
  inScope: (path: string) => boolean,
  doc: string,
  problems: string[],
): void {
  for (const path of new Set([...Object.keys(ours), ...Object.keys(ref)])) {
    if (!inScope(path)) continue;
    if (!(path in ours) || !(path in ref)) {
      const side = path in ours ? 'ours' : 'ref';
      if (!allowedSide(allowedPathDiffs, path, side, 'path'))
        problems.push(`${doc}: path ${path} only in ${side === 'ours' ? 'ours' : 'reference'}`);
      continue;
    }
    const diffs: string[] = [];
    diff(normalize(ours[path]!, sharedParams), normalize(ref[path]!, sharedParams), path, diffs);
    problems.push(...diffs.map((d) => `${doc}: ${d}`));
  }
}

// ---- the comparison -------------------------------------------------------------------------

/** Alpha gates of the reference's `alpha-gates-on` capture that v1.27 knows. */
const alphaGates = Object.fromEntries(
  [
    'ValidatingAdmissionPolicy',
    'InPlacePodVerticalScaling',
    'WatchList',
    'MultiCIDRServiceAllocator',
    'MultiCIDRRangeAllocator',
    'ServiceNodePortStaticSubrange',
    'AdmissionWebhookMatchConditions',
    'ClusterTrustBundle',
    'DynamicResourceAllocation',
  ]
    .filter((g) => v127Gates[g] !== undefined)
    .map((g) => [g, true]),
);

const variants = [
  { dir: 'default', options: {} },
  {
    dir: 'alpha-gates-on',
    options: {
      runtimeConfig:
        'admissionregistration.k8s.io/v1alpha1=true,networking.k8s.io/v1alpha1=true,' +
        'certificates.k8s.io/v1alpha1=true,resource.k8s.io/v1alpha2=true',
      featureGates: alphaGates,
    },
  },
] as const;

/** `/api/v1/...` -> `api/v1`; `/apis/apps/v1/...` -> `apis/apps/v1`; `/apis/apps/` -> `apis/apps`. */
function groupVersionOf(path: string): string {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[0] === 'api') return parts.length > 1 ? `api/${parts[1]}` : 'api';
  if (parts[0] === 'apis') return parts.slice(0, Math.min(parts.length, 3)).join('/');
  return parts.filter((p) => !p.startsWith('{')).join('/');
}

for (const variant of variants) {
  describe(`OpenAPI compared with the reference (${variant.dir})`, { skip }, () => {
    const refDir = join(refRoot, variant.dir, 'openapi');
    let server: TestServer;
    let servedDocs: Set<string>;
    before(async () => {
      server = await startTestServer({ storage: 'memory', controllers: false, ...variant.options });
      const index = obj((await server.request('GET', '/openapi/v3')).json<JsonObj>().paths ?? null, 'index');
      servedDocs = new Set(Object.keys(index));
    });
    after(() => server.stop());

    it('v2 definitions match field by field', async () => {
      const ours = obj((await server.request('GET', '/openapi/v2')).json<JsonObj>().definitions, 'ours');
      const ref = obj(readJson(join(refDir, 'v2.json')).definitions, 'reference');
      const problems: string[] = [];
      compareSchemas(ours, ref, 'definitions', 'v2', problems);
      assert.deepEqual(problems, []);
    });

    it('v2 paths of the served group-versions match', async () => {
      const ours = (await server.request('GET', '/openapi/v2')).json<JsonObj>();
      const refDoc = readJson(join(refDir, 'v2.json'));
      const sharedParams = obj(refDoc.parameters, 'parameters');
      const problems: string[] = [];
      // Group-versions (and root documents) either side publishes must be the same ones.
      const gvs = (paths: JsonObj): Set<string> => new Set(Object.keys(paths).map(groupVersionOf));
      const ourGvs = gvs(obj(ours.paths, 'paths'));
      const refGvs = gvs(obj(refDoc.paths, 'paths'));
      for (const gv of new Set([...ourGvs, ...refGvs])) {
        if (ourGvs.has(gv) && refGvs.has(gv)) continue;
        const side = ourGvs.has(gv) ? 'ours' : 'ref';
        if (!allowedSide(allowedGroupVersionDiffs, gv, side, 'group-version'))
          problems.push(`v2: ${gv} only in ${side}`);
      }
      comparePaths(
        obj(ours.paths, 'paths'),
        obj(refDoc.paths, 'paths'),
        sharedParams,
        (p) => ourGvs.has(groupVersionOf(p)) && refGvs.has(groupVersionOf(p)),
        'v2',
        problems,
      );
      for (const k of ['swagger', 'securityDefinitions', 'security'])
        assert.deepEqual(normalize(ours[k]!), normalize(refDoc[k]!), k);
      assert.deepEqual(problems, []);
    });

    it('v3 publishes the same documents, and each one matches', async () => {
      const refIndex = obj(readJson(join(refDir, 'v3', 'index.json')).paths, 'reference index');
      const problems: string[] = [];
      for (const doc of new Set([...servedDocs, ...Object.keys(refIndex)])) {
        if (!servedDocs.has(doc) || !(doc in refIndex)) {
          const side = servedDocs.has(doc) ? 'ours' : 'ref';
          if (!allowedSide(allowedGroupVersionDiffs, doc, side, 'group-version'))
            problems.push(`v3 document ${doc} only in ${side}`);
          continue;
        }
        const ours = (await server.request('GET', `/openapi/v3/${doc}`)).json<JsonObj>();
        const ref = readJson(join(refDir, 'v3', `${doc.replaceAll('/', '_')}.json`));
        const oc = obj(ours.components, `${doc} components`);
        const rc = obj(ref.components, `${doc} reference components`);
        compareSchemas(
          obj(oc.schemas ?? {}, 'schemas'),
          obj(rc.schemas ?? {}, 'schemas'),
          'components/schemas',
          doc,
          problems,
        );
        diff(
          normalize(oc.securitySchemes!),
          normalize(rc.securitySchemes!),
          `${doc} securitySchemes`,
          problems,
        );
        comparePaths(obj(ours.paths, 'paths'), obj(ref.paths, 'paths'), {}, () => true, doc, problems);
        assert.equal(ours.openapi, ref.openapi);
      }
      assert.deepEqual(problems, []);
    });
  });
}

/** Words of a text; dotted names (spec.nodeName) count as one word. */
function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9'._-]+/g) ?? [];
}

/** Runs of `n` consecutive words that `ours` shares with `theirs`. */
function sharedRuns(ours: string, theirs: string, n: number): string[] {
  const a = words(ours);
  const b = ` ${words(theirs).join(' ')} `;
  const out: string[] = [];
  for (let i = 0; i + n <= a.length; i++) {
    const run = a.slice(i, i + n).join(' ');
    if (b.includes(` ${run} `)) out.push(run);
  }
  return out;
}

describe('descriptions are ours', { skip }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ storage: 'memory', controllers: false });
  });
  after(() => server.stop());

  it("no published description repeats upstream's wording at the same place", async () => {
    const ours = obj((await server.request('GET', '/openapi/v2')).json<JsonObj>().definitions, 'ours');
    const ref = obj(readJson(join(refRoot, 'default', 'openapi', 'v2.json')).definitions, 'reference');
    const text = (v: Json | undefined): string | undefined =>
      isObj(v) && typeof v.description === 'string' ? v.description : undefined;
    const copied: string[] = [];
    let described = 0;
    for (const [name, def] of Object.entries(ours)) {
      const theirs = ref[name];
      const places: [string, Json | undefined, Json | undefined][] = [[name, def, theirs]];
      const props = isObj(def) && isObj(def.properties) ? def.properties : {};
      const refProps = isObj(theirs) && isObj(theirs.properties) ? theirs.properties : {};
      for (const [k, v] of Object.entries(props)) places.push([`${name}.${k}`, v, refProps[k]]);
      for (const [where, a, b] of places) {
        const mine = text(a);
        if (mine === undefined) continue;
        described++;
        const runs = sharedRuns(mine, text(b) ?? '', 8);
        if (runs.length > 0) copied.push(`${where}: "${runs[0]!}"`);
      }
    }
    assert.ok(described > 1000, `only ${described} descriptions published`);
    assert.deepEqual(copied, []);
  });
});

describe('allowed differences', { skip }, () => {
  it('every listed difference still occurs (the lists stay honest)', () => {
    const listed = [
      ...allowedSchemaDiffs.map(([k]) => `schema ${k}`),
      ...allowedDocumentSchemas.map(([doc, name]) => `document ${doc} ${name}`),
      ...allowedPathDiffs.map(([k]) => `path ${k}`),
      ...allowedGroupVersionDiffs.map(([k]) => `group-version ${k}`),
    ];
    assert.deepEqual(
      listed.filter((k) => !used.has(k)),
      [],
    );
  });
});
