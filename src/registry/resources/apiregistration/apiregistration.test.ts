import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultAPIService } from '../../../apis/apiregistration/v1/defaults.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { StrategyContext } from '../../../machinery/validation-context.js';
import { cloneJson } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { apiServices } from './apiservices.js';
import { apiregistrationV1Resources, localAPIServices } from './index.js';

const ctx: StrategyContext = { namespace: '', features: { enabled: () => true } };
const strategy = apiServices.strategy;
const messages = (errs: readonly { toString(): string }[]): string[] => errs.map((e) => e.toString());

function svc(name: string, spec: JsonObject): KubeObject {
  const o: KubeObject = {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name },
    spec,
  };
  defaultAPIService(o);
  return o;
}

test('discovery facts of apiservices', () => {
  assert.deepEqual(
    apiregistrationV1Resources.map((r) => [
      r.info.resource,
      r.info.namespaced,
      r.info.shortNames,
      r.info.categories,
      r.info.statusSubresource,
    ]),
    [['apiservices', false, undefined, ['api-extensions'], true]],
  );
  assert.equal(strategy.nameValidation, 'pathSegment');
  assert.equal(strategy.allowUnconditionalUpdate, false);
});

test('create: a local APIService becomes Available, one with a service starts without conditions', () => {
  const local = svc('v1.example.com', {
    group: 'example.com',
    version: 'v1',
    groupPriorityMinimum: 1000,
    versionPriority: 15,
  });
  local['status'] = { conditions: [{ type: 'Available', status: 'False' }] };
  strategy.prepareForCreate(ctx, local);
  const conditions = (local['status'] as { conditions: JsonObject[] }).conditions;
  assert.equal(conditions.length, 1);
  assert.deepEqual(
    { ...conditions[0], lastTransitionTime: 'T' },
    {
      type: 'Available',
      status: 'True',
      lastTransitionTime: 'T',
      reason: 'Local',
      message: 'Local APIServices are always available',
    },
  );
  assert.deepEqual(messages(strategy.validate(ctx, local)), []);
  const remote = svc('v1beta1.metrics.k8s.io', {
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    groupPriorityMinimum: 100,
    versionPriority: 100,
    service: { namespace: 'kube-system', name: 'metrics-server' },
    insecureSkipTLSVerify: true,
  });
  strategy.prepareForCreate(ctx, remote);
  assert.deepEqual(remote['status'], {});
  assert.equal(((remote['spec'] as JsonObject)['service'] as JsonObject)['port'], 443);
  assert.deepEqual(messages(strategy.validate(ctx, remote)), []);
});

test('validation: name, group, version, priorities, local and service rules', () => {
  const bad = svc('v1.other', {
    version: 'V1',
    groupPriorityMinimum: 0,
    versionPriority: 1001,
    caBundle: 'AAAA',
    insecureSkipTLSVerify: true,
  });
  assert.deepEqual(messages(strategy.validate(ctx, bad)), [
    'metadata.name: Invalid value: "v1.other": must be `spec.version+"."+spec.group`: "V1."',
    'spec.group: Required value: only v1 may have an empty group and it better be legacy kube',
    "spec.version: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
    'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
    'spec.caBundle: Invalid value: "3 bytes": local APIServices may not have a caBundle',
    'spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
  ]);
  const core = svc('v1.', { version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 });
  assert.deepEqual(messages(strategy.validate(ctx, core)), []);
  const remote = svc('v1.Example.com', {
    group: 'Example.com',
    version: 'v1',
    groupPriorityMinimum: 20000,
    versionPriority: 1000,
    service: { port: 0 },
    caBundle: 'AAAA',
    insecureSkipTLSVerify: true,
  });
  assert.deepEqual(messages(strategy.validate(ctx, remote)), [
    "spec.group: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    'spec.service.namespace: Required value',
    'spec.service.name: Required value',
    'spec.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
    'spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present',
  ]);
});

test('update keeps status; /status keeps spec, labels, annotations and validates condition statuses', () => {
  const old = svc('v1.example.com', {
    group: 'example.com',
    version: 'v1',
    groupPriorityMinimum: 1000,
    versionPriority: 15,
  });
  strategy.prepareForCreate(ctx, old);
  old.metadata.labels = { a: 'b' };
  const upd = cloneJson(old);
  upd['status'] = {};
  (upd['spec'] as JsonObject)['versionPriority'] = 20;
  strategy.prepareForUpdate(ctx, upd, old);
  assert.deepEqual(upd['status'], old['status']);
  assert.equal(upd.metadata.generation, undefined);
  const status = apiServices.statusStrategy!;
  const s = cloneJson(old);
  (s['spec'] as JsonObject)['versionPriority'] = 99;
  s.metadata.labels = { c: 'd' };
  s['status'] = { conditions: [{ type: 'Available', status: 'Maybe' }] };
  status.prepareForUpdate(ctx, s, old);
  assert.equal((s['spec'] as JsonObject)['versionPriority'], 15);
  assert.deepEqual(s.metadata.labels, { a: 'b' });
  assert.deepEqual(messages(status.validateUpdate(ctx, s, old)), [
    'status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"',
  ]);
});

test('localAPIServices: upstream names, priorities and the Local condition; unknown group-versions skipped', () => {
  const got = localAPIServices(
    [
      { group: '', version: 'v1' },
      { group: 'apps', version: 'v1' },
      { group: 'autoscaling', version: 'v2' },
      { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3' },
      { group: 'apiregistration.k8s.io', version: 'v1' },
      { group: 'example.com', version: 'v1' },
    ],
    '2024-01-01T00:00:00Z',
  );
  assert.deepEqual(
    got.map((o) => [o.metadata.name, o['spec']]),
    [
      ['v1.', { version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 }],
      ['v1.apps', { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 }],
      [
        'v2.autoscaling',
        { group: 'autoscaling', version: 'v2', groupPriorityMinimum: 17500, versionPriority: 30 },
      ],
      [
        'v1beta3.flowcontrol.apiserver.k8s.io',
        {
          group: 'flowcontrol.apiserver.k8s.io',
          version: 'v1beta3',
          groupPriorityMinimum: 16100,
          versionPriority: 18,
        },
      ],
    ],
  );
  const first = got[0]!;
  assert.deepEqual(first.metadata.labels, { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' });
  assert.deepEqual(first['status'], {
    conditions: [
      {
        type: 'Available',
        status: 'True',
        lastTransitionTime: '2024-01-01T00:00:00Z',
        reason: 'Local',
        message: 'Local APIServices are always available',
      },
    ],
  });
  for (const o of got) assert.deepEqual(messages(strategy.validate(ctx, o)), [], o.metadata.name);
});
