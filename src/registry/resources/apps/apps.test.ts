import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultDaemonSet, defaultDeployment, defaultStatefulSet } from '../../../apis/apps/v1/defaults.js';
import { ctx, messages, podTemplate, workload } from '../../../apis/apps/v1/testdata/fixtures.js';
import type { KubeObject } from '../../../machinery/object.js';
import { cloneJson } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { daemonSets } from './daemonsets.js';
import { deployments } from './deployments.js';
import { replicaSets } from './replicasets.js';
import { statefulSets } from './statefulsets.js';

function deployment(spec: JsonObject, name = 'web'): KubeObject {
  const d = workload('Deployment', 'apps/v1', spec, name);
  defaultDeployment(d);
  return d;
}

const matching = { selector: { matchLabels: { app: 'web' } }, template: podTemplate({ app: 'web' }) };

test('a valid Deployment passes, gets generation 1 and its status reset to the zero status', () => {
  const d = deployment(matching);
  d['status'] = { replicas: 3 };
  deployments.strategy.prepareForCreate(ctx, d);
  assert.equal(d.metadata.generation, 1);
  assert.deepEqual(d['status'], {});
  assert.deepEqual(messages(deployments.strategy.validate(ctx, d)), []);
});

test('Deployment selector must match template labels (upstream message)', () => {
  const d = deployment({
    selector: { matchLabels: { app: 'web' } },
    template: podTemplate({ app: 'other', tier: 'x' }),
  });
  assert.deepEqual(messages(deployments.strategy.validate(ctx, d)), [
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"other", "tier":"x"}: `selector` does not match template `labels`',
  ]);
});

test('Deployment selector is required; replicas and progress deadline are checked', () => {
  const d = deployment({ replicas: -1, minReadySeconds: 700, template: podTemplate({ app: 'web' }) });
  assert.deepEqual(messages(deployments.strategy.validate(ctx, d)), [
    'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    'spec.selector: Required value',
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    'spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds',
  ]);
});

test('Deployment strategy values', () => {
  const d = deployment({
    ...matching,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } },
  });
  assert.deepEqual(messages(deployments.strategy.validate(ctx, d)), [
    'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
  ]);
  const bad = deployment({
    ...matching,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%', maxSurge: 'x' } },
  });
  assert.deepEqual(messages(deployments.strategy.validate(ctx, bad)), [
    "spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"x\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
  ]);
  const recreate = deployment({ ...matching, strategy: { type: 'Recreate', rollingUpdate: {} } });
  assert.deepEqual(messages(deployments.strategy.validate(ctx, recreate)), [
    "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
  ]);
});

test('Deployment selector is immutable; spec and annotation changes bump generation', () => {
  const old = deployment(matching);
  deployments.strategy.prepareForCreate(ctx, old);
  const changed = cloneJson(old);
  (changed['spec'] as JsonObject)['selector'] = { matchLabels: { app: 'web', v: '2' } };
  ((changed['spec'] as JsonObject)['template'] as { metadata: JsonObject }).metadata['labels'] = {
    app: 'web',
    v: '2',
  };
  deployments.strategy.prepareForUpdate(ctx, changed, old);
  assert.equal(changed.metadata.generation, 2);
  assert.deepEqual(messages(deployments.strategy.validateUpdate(ctx, changed, old)), [
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "v":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
  ]);
  const annotated = cloneJson(old);
  annotated.metadata.annotations = { note: 'x' };
  deployments.strategy.prepareForUpdate(ctx, annotated, old);
  assert.equal(annotated.metadata.generation, 2);
});

test('Deployment name that is not a DNS label warns', () => {
  const d = deployment(matching, 'web.v1');
  assert.deepEqual(deployments.strategy.warningsOnCreate(ctx, d), [
    'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
  ]);
});

test('ReplicaSet: restartPolicy Always, empty selector, status.replicas selectable', () => {
  const rs = workload('ReplicaSet', 'apps/v1', {
    replicas: 1,
    selector: {},
    template: podTemplate({}, 'Never'),
  });
  const errs = messages(replicaSets.strategy.validate(ctx, rs));
  assert.ok(
    errs.includes(
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
    ),
    errs.join('\n'),
  );
  assert.ok(
    errs.includes('spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'),
    errs.join('\n'),
  );
  rs['status'] = { replicas: 2 };
  assert.deepEqual(replicaSets.selectableFields?.(rs), { 'status.replicas': '2' });
});

test('StatefulSet updates to frozen spec fields are forbidden', () => {
  const old = workload('StatefulSet', 'apps/v1', { serviceName: 'web', ...matching });
  defaultStatefulSet(old);
  assert.deepEqual(messages(statefulSets.strategy.validate(ctx, old)), []);
  const upd = cloneJson(old);
  (upd['spec'] as JsonObject)['serviceName'] = 'other';
  assert.deepEqual(messages(statefulSets.strategy.validateUpdate(ctx, upd, old)), [
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  ]);
  const scaled = cloneJson(old);
  (scaled['spec'] as JsonObject)['replicas'] = 5;
  (scaled['spec'] as JsonObject)['ordinals'] = { start: -1 };
  assert.deepEqual(messages(statefulSets.strategy.validateUpdate(ctx, scaled, old)), [
    'spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0',
    'spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0',
  ]);
  assert.equal(statefulSets.strategy.nameValidation, 'dns1123Label');
});

test('DaemonSet template generation annotation and rolling update rules', () => {
  const ds = workload('DaemonSet', 'apps/v1', matching);
  defaultDaemonSet(ds);
  daemonSets.strategy.prepareForCreate(ctx, ds);
  assert.equal(ds.metadata.annotations?.['deprecated.daemonset.template.generation'], '1');
  assert.deepEqual(messages(daemonSets.strategy.validate(ctx, ds)), []);
  const upd = cloneJson(ds);
  ((upd['spec'] as JsonObject)['template'] as { spec: JsonObject }).spec['hostNetwork'] = true;
  daemonSets.strategy.prepareForUpdate(ctx, upd, ds);
  assert.equal(upd.metadata.annotations?.['deprecated.daemonset.template.generation'], '2');
  assert.equal(upd.metadata.generation, 2);
  const both = cloneJson(ds);
  (both['spec'] as JsonObject)['updateStrategy'] = {
    type: 'RollingUpdate',
    rollingUpdate: { maxUnavailable: 1, maxSurge: 1 },
  };
  assert.deepEqual(messages(daemonSets.strategy.validate(ctx, both)), [
    'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero',
  ]);
});

test('apps status updates: counters and bounds', () => {
  const old = deployment(matching);
  const upd = cloneJson(old);
  upd['status'] = { replicas: 1, readyReplicas: 2 };
  assert.deepEqual(messages(deployments.statusStrategy?.validateUpdate(ctx, upd, old) ?? []), [
    'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
  ]);
});
