import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonValue } from '../../util/json.js';
import { loadPodSecurityConfiguration } from './load-configuration.js';

const apiVersion = 'pod-security.admission.config.k8s.io/v1';
const load = (v: JsonValue | undefined) => loadPodSecurityConfiguration(v);
const fails = (v: JsonValue, message: string) =>
  assert.throws(
    () => load(v),
    (err: unknown) => err instanceof Error && err.message === message,
    message,
  );

test('no configuration: every mode privileged:latest, no exemptions', () => {
  const { configuration, defaultPolicy } = load(undefined);
  assert.deepEqual(defaultPolicy, {
    enforce: { level: 'privileged', version: 'latest' },
    audit: { level: 'privileged', version: 'latest' },
    warn: { level: 'privileged', version: 'latest' },
  });
  assert.deepEqual(configuration.exemptions, { usernames: [], namespaces: [], runtimeClasses: [] });
});

test('v1, v1beta1 and v1alpha1 decode alike, unset defaults defaulted', () => {
  for (const version of ['v1', 'v1beta1', 'v1alpha1']) {
    const { configuration, defaultPolicy } = load({
      apiVersion: `pod-security.admission.config.k8s.io/${version}`,
      kind: 'PodSecurityConfiguration',
      defaults: { enforce: 'baseline', 'enforce-version': 'v1.24', warn: 'restricted', audit: null },
      exemptions: { usernames: ['admin'], namespaces: ['kube-system'], runtimeClasses: ['kata'] },
    });
    assert.deepEqual(defaultPolicy, {
      enforce: { level: 'baseline', version: 24 },
      audit: { level: 'privileged', version: 'latest' },
      warn: { level: 'restricted', version: 'latest' },
    });
    assert.deepEqual(configuration.exemptions, {
      usernames: ['admin'],
      namespaces: ['kube-system'],
      runtimeClasses: ['kata'],
    });
  }
});

test('decoding errors as upstream scheme reports them', () => {
  fails({ apiVersion }, `Object 'Kind' is missing in '{"apiVersion":"${apiVersion}"}'`);
  fails(
    { kind: 'PodSecurityConfiguration' },
    `Object 'apiVersion' is missing in '{"kind":"PodSecurityConfiguration"}'`,
  );
  fails(
    { apiVersion: 'apps/v1alpha1', kind: 'PodSecurityConfiguration' },
    'no kind "PodSecurityConfiguration" is registered for version "apps/v1alpha1" in scheme "k8s.io/pod-security-admission/admission/api/scheme/scheme.go:31"',
  );
  fails(
    { apiVersion: 'pod-security.admission.config.k8s.io/v99', kind: 'PodSecurityConfiguration' },
    'no kind "PodSecurityConfiguration" is registered for version "pod-security.admission.config.k8s.io/v99" in scheme "k8s.io/pod-security-admission/admission/api/scheme/scheme.go:31"',
  );
  fails(
    { apiVersion, kind: 'SomeConfiguration' },
    `no kind "SomeConfiguration" is registered for version "${apiVersion}" in scheme "k8s.io/pod-security-admission/admission/api/scheme/scheme.go:31"`,
  );
  fails(
    {
      apiVersion,
      kind: 'PodSecurityConfiguration',
      deflaults: {},
      defaults: { enforce: 'baseline', Audit: 'x' },
    },
    'strict decoding error: unknown field "deflaults", unknown field "defaults.Audit"',
  );
  fails(
    { apiVersion, kind: 'PodSecurityConfiguration', defaults: { enforce: 1 }, foo: 1 },
    'json: cannot unmarshal number into Go struct field PodSecurityDefaults.defaults.enforce of type string',
  );
  fails(
    { apiVersion, kind: 'PodSecurityConfiguration', exemptions: { usernames: 'admin' } },
    'json: cannot unmarshal string into Go struct field PodSecurityExemptions.exemptions.usernames of type []string',
  );
});

test('bad defaults: the configuration error of upstream CompleteConfiguration', () => {
  fails(
    { apiVersion, kind: 'PodSecurityConfiguration', defaults: { enforce: 'strict' } },
    'PodSecurity configuration error: enforce: must be one of privileged, baseline, restricted',
  );
  fails(
    {
      apiVersion,
      kind: 'PodSecurityConfiguration',
      defaults: { enforce: 'strict', 'audit-version': '1.25', warn: 'x' },
    },
    'PodSecurity configuration error: [enforce: must be one of privileged, baseline, restricted, ' +
      'audit-version: must be "latest" or "v1.x", warn: must be one of privileged, baseline, restricted]',
  );
});

test('bad exemptions: the validation error of upstream ValidateConfiguration', () => {
  assert.throws(
    () =>
      load({
        apiVersion,
        kind: 'PodSecurityConfiguration',
        exemptions: {
          namespaces: ['Bad_NS', 'a', 'a'],
          runtimeClasses: ['ok.example', 'ok.example'],
          usernames: [''],
        },
      }),
    (err: unknown) =>
      err instanceof Error &&
      err.message.startsWith(
        'PodSecurity invalid: [exemptions.namespaces[0]: Invalid value: "Bad_NS": a lowercase RFC 1123 label',
      ) &&
      err.message.endsWith(
        'exemptions.namespaces[2]: Duplicate value: "a", exemptions.runtimeClasses[1]: Duplicate value: "ok.example", ' +
          'exemptions.usernames[0]: Invalid value: "": username must not be empty]',
      ),
  );
  fails(
    { apiVersion, kind: 'PodSecurityConfiguration', exemptions: { usernames: ['a', 'a'] } },
    'PodSecurity invalid: exemptions.usernames[1]: Duplicate value: "a"',
  );
});
