/**
 * kubectl 1.27 against `nanokube serve` for the whole built-in catalogue: for every manifest
 * in test/fixtures/catalogue/ (one per served kind), `kubectl create -f`, `kubectl get <resource>
 * <name>` (default and `-o wide`) and `kubectl explain <resource> --recursive`. Alpha kinds live in
 * test/fixtures/catalogue/alpha/ and run against a second server started with `--runtime-config` and
 * their feature gates. A fixture that fails for a known reason is listed in `todo` with the exact
 * failure text; none is skipped silently.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { lines } from './support/kubectl-runner.js';
import { repoRoot } from './support/nanokube-process.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';
import type { Session } from './support/session.js';

const catalogueDir = join(repoRoot, 'test/fixtures/catalogue');
const alphaDir = join(catalogueDir, 'alpha');

/**
 * Namespaced fixtures carry no namespace; they are created in `default`. (A core Event whose
 * involvedObject has no namespace is only valid in `default`, as upstream's legacy event validation
 * has it, so `default` is where a user's manifests land.)
 */
const namespace = 'default';

const alphaFlags = [
  '--runtime-config=api/alpha=true',
  '--feature-gates=ClusterTrustBundle=true,ValidatingAdmissionPolicy=true,MultiCIDRServiceAllocator=true,MultiCIDRRangeAllocator=true,DynamicResourceAllocation=true',
];

/** Computed resources (create-only reviews, bindings, componentstatuses): nothing to store or get. */
const computed = new Set([
  'bindings',
  'componentstatuses',
  'tokenreviews.authentication.k8s.io',
  'selfsubjectreviews.authentication.k8s.io',
  'subjectaccessreviews.authorization.k8s.io',
  'localsubjectaccessreviews.authorization.k8s.io',
  'selfsubjectaccessreviews.authorization.k8s.io',
  'selfsubjectrulesreviews.authorization.k8s.io',
]);

/** Fixture file name → the exact failure it meets today (shown as `todo`, still run). */
const todo: Readonly<Record<string, string>> = {};

interface Fixture {
  readonly file: string;
  readonly path: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly name: string;
  readonly apiVersion: string;
  /** Events only: `kind/name` of the object the event is about, as the OBJECT column shows it. */
  readonly eventObject?: string;
}

/** `<resource>` for core, `<resource>.<group>` otherwise: what `kubectl api-resources -o name` prints. */
function qualified(f: Fixture): string {
  return f.group === '' ? f.resource : `${f.resource}.${f.group}`;
}

function loadFixtures(dir: string): Fixture[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => {
      const m = /^([^_]+)_([a-z0-9]+)\.yaml$/.exec(file);
      assert.ok(m !== null, `fixture ${file} is not named <group>_<resource>.yaml`);
      const path = join(dir, file);
      const doc = parse(readFileSync(path, 'utf8')) as {
        apiVersion: string;
        kind: string;
        metadata: { name: string; namespace?: string };
        involvedObject?: { kind: string; name: string };
        regarding?: { kind: string; name: string };
      };
      const about = doc.involvedObject ?? doc.regarding;
      assert.equal(doc.metadata.namespace, undefined, `${file}: namespaced fixtures carry no namespace`);
      const slash = doc.apiVersion.indexOf('/');
      const group = slash < 0 ? '' : doc.apiVersion.slice(0, slash);
      assert.equal(m[1], group === '' ? 'core' : group, `${file}: file name and apiVersion disagree`);
      return {
        file,
        path,
        group,
        version: doc.apiVersion.slice(slash + 1),
        resource: m[2]!,
        kind: doc.kind,
        name: doc.metadata.name,
        apiVersion: doc.apiVersion,
        ...(about === undefined ? {} : { eventObject: `${about.kind.toLowerCase()}/${about.name}` }),
      };
    });
}

const fixtures = loadFixtures(catalogueDir);
const alphaFixtures = loadFixtures(alphaDir);

/**
 * The header line and the object's row: a row with `name` as a cell. Events have no NAME column in
 * the default table (upstream's printer: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE), so there the row
 * is the one naming the event's object (`kind/name`); `-o wide` ends with NAME.
 */
function assertTable(out: string, f: Fixture, wide: boolean): void {
  const what = `get ${qualified(f)}${wide ? ' -o wide' : ''}`;
  const [header, ...rows] = lines(out);
  const isEvent = f.kind === 'Event';
  assert.match(
    header ?? '',
    isEvent ? /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s/ : /^NAME\s/,
    `${what}: header\n${out}`,
  );
  const key = isEvent && !wide ? f.eventObject! : f.name;
  assert.ok(
    rows.some((r) => r.trim().split(/\s+/).includes(key)),
    `${what}: no row with ${key}\n${out}`,
  );
}

/** create → get → get -o wide → explain --recursive for one fixture. */
async function exercise(s: Session, f: Fixture): Promise<void> {
  const created = await s.ok(['create', '-f', f.path, '-n', namespace]);
  const kindGroup = f.group === '' ? f.kind.toLowerCase() : `${f.kind.toLowerCase()}.${f.group}`;
  assert.ok(
    lines(created).includes(`${kindGroup}/${f.name} created`),
    `create ${f.file}: expected "${kindGroup}/${f.name} created", got\n${created}`,
  );

  const res = qualified(f);
  assertTable(await s.ok(['get', res, f.name, '-n', namespace]), f, false);
  assertTable(await s.ok(['get', res, f.name, '-n', namespace, '-o', 'wide']), f, true);

  // `explain events.events.k8s.io` resolves to the core Event in kubectl 1.27 (its prefix matching
  // takes the first resource named `events`), so the group-version is given with --api-version.
  const explained = await s.ok(['explain', f.resource, `--api-version=${f.apiVersion}`, '--recursive']);
  const head =
    (f.group === '' ? '' : `GROUP:      ${f.group}\n`) +
    `KIND:       ${f.kind}\nVERSION:    ${f.version}\n\n`;
  assert.ok(explained.startsWith(head), `explain ${res}: expected to start with\n${head}got\n${explained}`);
  assert.match(explained, /^FIELDS:$/m, `explain ${res}:\n${explained}`);
  assert.match(explained, /^ {2}metadata\t<ObjectMeta>( -required-)?$/m, `explain ${res}:\n${explained}`);
}

/** The resources kubectl lists that are stored (not computed). */
async function storedResources(s: Session): Promise<string[]> {
  return lines(await s.ok(['api-resources', '-o', 'name'])).filter((r) => !computed.has(r));
}

function fixtureCases(s: Session, list: readonly Fixture[]): void {
  // Four kubectl processes at a time: each case's own calls stay in order.
  describe('create, get, get -o wide, explain --recursive', { concurrency: 4 }, () => {
    for (const f of list) {
      const reason = todo[f.file];
      it(`${qualified(f)} (${f.file})`, reason === undefined ? {} : { todo: reason }, () => exercise(s, f));
    }
  });
}

describe('kubectl 1.27 with the whole catalogue', { skip: kubectlSkip }, () => {
  const s = kubectlSession();

  it('test/fixtures/catalogue holds one manifest per stored resource served by default', async () => {
    const served = await storedResources(s);
    const have = fixtures.map(qualified);
    assert.deepEqual([...have].sort(), [...served].sort());
  });

  fixtureCases(s, fixtures);

  itStopsCleanly(s);
});

describe(
  'kubectl 1.27 with the alpha catalogue (--runtime-config=api/alpha=true)',
  { skip: kubectlSkip },
  () => {
    const s = kubectlSession({ args: alphaFlags });

    it('test/fixtures/catalogue/alpha holds one manifest per stored resource only served with alpha on', async () => {
      const served = await storedResources(s);
      const byDefault = new Set(fixtures.map(qualified));
      const have = alphaFixtures.map(qualified);
      assert.deepEqual([...have].sort(), served.filter((r) => !byDefault.has(r)).sort());
    });

    fixtureCases(s, alphaFixtures);

    itStopsCleanly(s);
  },
);
