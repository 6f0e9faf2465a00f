import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { realClock } from '../../../util/clock.js';
import { upstreamProbeTimings } from '../encrypt/kmsv2/probe.js';
import { buildEncryptionProviders } from './build.js';
import type { BuildOptions } from './build.js';
import { decodeEncryptionConfiguration } from './decode.js';
import { loadEncryptionConfig } from './load.js';
import type { EncryptionConfiguration } from './types.js';
import { aggregateMessage, validateEncryptionConfiguration } from './validate.js';

const header = 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n';
const k32 = Buffer.alloc(32, 1).toString('base64');

function errorsOf(yaml: string, reload = false): string {
  return aggregateMessage(
    validateEncryptionConfiguration(decodeEncryptionConfiguration(header + yaml), reload),
  );
}

const options = (over: Partial<BuildOptions> = {}): BuildOptions => ({
  reload: false,
  kmsV2Enabled: true,
  clock: realClock,
  timings: upstreamProbeTimings,
  signal: new AbortController().signal,
  log: () => {},
  ...over,
});

describe('decoding', () => {
  test('YAML and JSON, with upstream defaults for kms', () => {
    const yaml = decodeEncryptionConfiguration(`${header}resources:
- resources: [secrets]
  providers:
  - kms: {name: a, endpoint: unix:///tmp/a.sock}
  - kms: {apiVersion: v2, name: b, endpoint: unix:///tmp/b.sock, timeout: 1m30s}
  - identity: {}
`);
    const [a, b, id] = yaml.resources[0]!.providers;
    assert.deepEqual(a?.kms, {
      apiVersion: 'v1',
      name: 'a',
      endpoint: 'unix:///tmp/a.sock',
      timeoutMs: 3000,
      timeoutNanos: 3_000_000_000n,
      cachesize: 1000,
    });
    assert.equal(b?.kms?.timeoutMs, 90_000);
    assert.equal(b?.kms?.cachesize, undefined);
    assert.deepEqual(id, { identity: {} });
    const json = decodeEncryptionConfiguration(
      JSON.stringify({
        apiVersion: 'apiserver.config.k8s.io/v1',
        kind: 'EncryptionConfiguration',
        resources: [
          { resources: ['secrets'], providers: [{ aescbc: { keys: [{ name: 'k', secret: k32 }] } }] },
        ],
      }),
    );
    assert.equal(json.resources[0]!.providers[0]!.aescbc!.keys[0]!.secret, k32);
  });

  test('kind and apiVersion are required', () => {
    assert.throws(() => decodeEncryptionConfiguration('resources: []\n'), {
      message: `Object 'Kind' is missing in '{"resources":[]}'`,
    });
    assert.throws(() => decodeEncryptionConfiguration('apiVersion: v1\nkind: EncryptionConfiguration\n'), {
      message:
        'no kind "EncryptionConfiguration" is registered for version "v1" in scheme "pkg/runtime/scheme.go:100"',
    });
  });
});

describe('validation (upstream ValidateEncryptionConfiguration)', () => {
  test('keys: required, base64, lengths per provider', () => {
    assert.equal(
      errorsOf(`resources:
- resources: [secrets]
  providers:
  - aesgcm: {keys: [{name: k, secret: ${Buffer.alloc(8).toString('base64')}}]}
`),
      'resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]',
    );
    assert.equal(
      errorsOf(`resources:
- resources: [secrets]
  providers:
  - secretbox: {keys: [{name: k, secret: ${Buffer.alloc(16).toString('base64')}}]}
`),
      'resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]',
    );
    assert.equal(
      errorsOf(`resources:
- resources: [secrets]
  providers:
  - aescbc: {keys: [{secret: "not base64!"}]}
  - aescbc: {keys: []}
`),
      '[resources[0].providers[0].aescbc.keys[0].name: Required value: name is a mandatory field for a key, resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded, resources[0].providers[1].aescbc.keys: Required value: at least one keys is required]',
    );
  });

  test('resources and providers', () => {
    assert.equal(
      errorsOf('resources: []\n'),
      'resources: Required value: at least one resources is required',
    );
    assert.equal(
      errorsOf('resources:\n- resources: []\n  providers: []\n'),
      '[resources[0].resources: Required value: at least one resources[0].resources is required, resources[0].providers: Required value: at least one resources[0].providers is required]',
    );
    assert.equal(
      errorsOf(`resources:
- resources: [secrets]
  providers:
  - {}
  - {identity: {}, aescbc: {keys: [{name: k, secret: ${k32}}]}}
`),
      '[resources[0].providers[0]: Invalid value: config.ProviderConfiguration{}: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity, resources[0].providers[1]: Invalid value: config.ProviderConfiguration{aescbc:{...}, identity:{...}}: more than one provider specified in a single element, should split into different list elements]',
    );
  });

  test('resource names: capitals, *, non-REST, events.k8s.io, extensions, across groups, overlap, duplicates', () => {
    const ok = '  providers: [{identity: {}}]\n';
    const cases: [string, string][] = [
      [
        '[Secrets]',
        'resources[0].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters',
      ],
      [
        '["*"]',
        `resources[0].resources[0]: Invalid value: "*": use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources`,
      ],
      [
        '[serviceipallocations]',
        'resources[0].resources[0]: Invalid value: "serviceipallocations": resources which do not have REST API/s cannot be encrypted',
      ],
      [
        '[events.events.k8s.io]',
        `resources[0].resources[0]: Invalid value: "events.events.k8s.io": '*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file`,
      ],
      [
        '[deployments.extensions]',
        `resources[0].resources[0]: Invalid value: "deployments.extensions": 'extensions' group has been removed and cannot be used for encryption`,
      ],
      [
        '["secrets.*"]',
        'resources[0].resources[0]: Invalid value: "secrets.*": encrypting the same resource across groups is not supported',
      ],
      [
        '[secrets, "*."]',
        `resources[0].resources: Invalid value: []string{"secrets", "*."}: using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked`,
      ],
      [
        '[secrets, secrets]',
        'resources[0].resources: Invalid value: []string{"secrets", "secrets"}: the same resource cannot be specified multiple times',
      ],
    ];
    for (const [resources, want] of cases) {
      assert.equal(errorsOf(`resources:\n- resources: ${resources}\n${ok}`), want, resources);
    }
    assert.deepEqual(
      validateEncryptionConfiguration(
        decodeEncryptionConfiguration(
          `${header}resources:\n- resources: ["*.apps", configmaps, "*.*"]\n${ok}`,
        ),
        false,
      ).length,
      1,
    );
  });

  test('kms: name, endpoint, timeout, cachesize, apiVersion', () => {
    assert.equal(
      errorsOf(`resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: "a:b", endpoint: "tcp://x", timeout: -1s, cachesize: 10}
  - kms: {apiVersion: v2, name: "a:b", endpoint: ""}
  - kms: {apiVersion: v3, name: c, endpoint: unix:///c.sock}
`),
      '[' +
        [
          `resources[0].providers[0].kms.name: Invalid value: "a:b": invalid KMS provider name a:b, must not contain ':'`,
          'resources[0].providers[0].kms.timeout: Invalid value: &v1.Duration{Duration:-1000000000}: timeout should be a positive value',
          'resources[0].providers[0].kms.endpoint: Invalid value: "tcp://x": unsupported scheme "tcp" for KMS provider, only unix is supported',
          'resources[0].providers[0].kms.cachesize: Invalid value: 10: cachesize is not supported in v2',
          `resources[0].providers[1].kms.name: Invalid value: "a:b": invalid KMS provider name a:b, must not contain ':'`,
          'resources[0].providers[1].kms.name: Invalid value: "a:b": duplicate KMS provider name a:b, names must be unique',
          'resources[0].providers[1].kms.endpoint: Invalid value: "": endpoint is a mandatory field for a kms',
        ].join(', ') +
        ', resources[0].providers[2].kms.apiVersion: Invalid value: "v3": unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported]',
    );
    // v1 names may repeat unless the configuration is reloaded automatically.
    const v1twice = `resources:
- resources: [secrets]
  providers:
  - kms: {name: a, endpoint: unix:///a.sock}
  - kms: {name: a, endpoint: unix:///a.sock, cachesize: 0}
`;
    assert.equal(
      errorsOf(v1twice),
      'resources[0].providers[1].kms.cachesize: Invalid value: 0: cachesize should be a positive value, or negative to disable',
    );
    assert.match(errorsOf(v1twice, true), /duplicate KMS provider name a, names must be unique/);
  });
});

describe('building the transformers', () => {
  const config = (text: string): EncryptionConfiguration => decodeEncryptionConfiguration(header + text);

  test('exact resources first, then resource.* of the group, then *.*', () => {
    const p = buildEncryptionProviders(
      config(`resources:
- resources: [secrets, "*.apps"]
  providers: [{aescbc: {keys: [{name: a, secret: ${k32}}]}}]
- resources: ["*.*"]
  providers: [{secretbox: {keys: [{name: b, secret: ${k32}}]}}]
`),
      options(),
    );
    const secrets = p.transformerFor({ group: '', resource: 'secrets' });
    assert.ok(secrets !== undefined);
    assert.equal(
      p.transformerFor({ group: 'apps', resource: 'deployments' }),
      p.transformerFor({ group: 'apps', resource: 'daemonsets' }),
    );
    const other = p.transformerFor({ group: '', resource: 'configmaps' });
    assert.ok(other !== undefined && other !== secrets);
    assert.equal(p.healthChecks.length, 0);
    const none = buildEncryptionProviders(
      config('resources:\n- resources: [secrets]\n  providers: [{identity: {}}]\n'),
      options(),
    );
    assert.equal(none.transformerFor({ group: '', resource: 'configmaps' }), undefined);
  });

  test('a rule masked by an earlier wildcard is refused', () => {
    assert.throws(
      () =>
        buildEncryptionProviders(
          config(`resources:
- resources: ["*."]
  providers: [{identity: {}}]
- resources: [secrets]
  providers: [{identity: {}}]
`),
          options(),
        ),
      { message: 'resource "secrets" is masked by earlier rule "*."' },
    );
    assert.throws(
      () =>
        buildEncryptionProviders(
          config(`resources:
- resources: ["*.*"]
  providers: [{identity: {}}]
- resources: [deployments.apps]
  providers: [{identity: {}}]
`),
          options(),
        ),
      { message: 'resource "deployments.apps" is masked by earlier rule "*.*"' },
    );
  });

  test('KMS v1 is refused; KMS v2 needs its feature gate', () => {
    assert.throws(
      () =>
        buildEncryptionProviders(
          config(
            'resources:\n- resources: [secrets]\n  providers: [{kms: {name: old, endpoint: "unix:///x.sock"}}]\n',
          ),
          options(),
        ),
      {
        message: `could not configure KMSv1-Plugin's probe "old", error: KMS v1 providers are not supported by nanokube (use apiVersion: v2)`,
      },
    );
    assert.throws(
      () =>
        buildEncryptionProviders(
          config(
            'resources:\n- resources: [secrets]\n  providers: [{kms: {apiVersion: v2, name: new, endpoint: "unix:///x.sock"}}]\n',
          ),
          options({ kmsV2Enabled: false }),
        ),
      { message: 'could not configure KMSv2 plugin "new", KMSv2 feature is not enabled' },
    );
  });
});

describe('loading the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nanokube-encconf-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string): string => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  test('upstream wraps every failure: parsing, then building', async () => {
    const empty = file('empty.yaml', '');
    await assert.rejects(loadEncryptionConfig(empty, options()), {
      message: `error while parsing file: encryption provider configuration file "${empty}" is empty`,
    });
    const wrongKind = file('kind.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfig\n');
    await assert.rejects(loadEncryptionConfig(wrongKind, options()), {
      message: `error while parsing file: error decoding encryption provider configuration file "${wrongKind}": no kind "EncryptionConfig" is registered for version "apiserver.config.k8s.io/v1" in scheme "pkg/runtime/scheme.go:100"`,
    });
    const invalid = file('invalid.yaml', `${header}resources: []\n`);
    await assert.rejects(loadEncryptionConfig(invalid, options()), {
      message: 'error while parsing file: resources: Required value: at least one resources is required',
    });
    const masked = file(
      'masked.yaml',
      `${header}resources:\n- resources: ["*.*"]\n  providers: [{identity: {}}]\n- resources: ["*."]\n  providers: [{identity: {}}]\n`,
    );
    await assert.rejects(loadEncryptionConfig(masked, options()), {
      message: 'error while building transformers: resource "*." is masked by earlier rule "*.*"',
    });
    const good = file(
      'good.yaml',
      `${header}resources:\n- resources: [secrets]\n  providers: [{aesgcm: {keys: [{name: k, secret: ${k32}}]}}]\n`,
    );
    const { providers: p } = await loadEncryptionConfig(good, options());
    assert.ok(p.transformerFor({ group: '', resource: 'secrets' }) !== undefined);
  });
});
