import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldPath } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import { cloneJson } from '../../../../util/json.js';
import type { JsonObject } from '../../../../util/json.js';
import { defaultPod } from '../defaults/pod.js';
import { validatePodCreate, validatePodTemplateSpec } from './pod.js';
import { validatePodUpdate } from './podupdate.js';

const ctx = (gates: string[] = []): StrategyContext => ({
  namespace: 'default',
  features: { enabled: (n) => gates.includes(n) },
});
const msgs = (errs: FieldError[]): string[] => errs.map((e) => e.toString());

function pod(spec: JsonObject): JsonObject {
  const p: JsonObject = { metadata: { name: 'p', namespace: 'default' }, spec };
  defaultPod(p);
  return p;
}
const basic = (): JsonObject => pod({ containers: [{ name: 'app', image: 'nginx' }] });

describe('pod create validation', () => {
  it('accepts a defaulted minimal pod', () => {
    assert.deepEqual(msgs(validatePodCreate(basic(), ctx())), []);
  });

  it('requires containers', () => {
    assert.deepEqual(msgs(validatePodCreate(pod({}), ctx())), ['spec.containers: Required value']);
  });

  it('reports container names, images, ports and duplicates', () => {
    const p = pod({
      containers: [
        {
          name: 'Bad_Name',
          image: '',
          ports: [
            { containerPort: 70000, name: 'http' },
            { containerPort: 81, name: 'http', protocol: 'ICMP' },
          ],
        },
        { name: 'x', image: 'a' },
        { name: 'x', image: 'b ' },
      ],
    });
    assert.deepEqual(msgs(validatePodCreate(p, ctx())), [
      `spec.containers[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'spec.containers[0].image: Required value',
      'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[1].name: Duplicate value: "http"',
      'spec.containers[0].ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      'spec.containers[2].name: Duplicate value: "x"',
      'spec.containers[2].image: Invalid value: "b ": must not have leading or trailing whitespace',
    ]);
  });

  it('checks enums with upstream supported lists', () => {
    const p = basic();
    const spec = p['spec'] as JsonObject;
    spec['restartPolicy'] = 'Sometimes';
    spec['dnsPolicy'] = 'Custom';
    assert.deepEqual(msgs(validatePodCreate(p, ctx())), [
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.dnsPolicy: Unsupported value: "Custom": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    ]);
  });

  it('checks volumes and mounts', () => {
    const p = pod({
      containers: [{ name: 'c', image: 'i', volumeMounts: [{ name: 'missing', mountPath: '/m' }] }],
      volumes: [
        { name: 'v', emptyDir: {}, configMap: { name: 'x' } },
        { name: 'w', emptyDir: {} },
        { name: 'w', emptyDir: {} },
      ],
    });
    assert.deepEqual(msgs(validatePodCreate(p, ctx())), [
      'spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type',
      'spec.volumes[2].name: Duplicate value: "w"',
      'spec.containers[0].volumeMounts[0].name: Not found: "missing"',
    ]);
  });

  it('checks requests against limits', () => {
    const p = pod({
      containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }],
    });
    assert.deepEqual(msgs(validatePodCreate(p, ctx())), [
      'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit',
    ]);
  });

  it('requires exactly one probe handler and accepts grpc', () => {
    const p = pod({
      containers: [
        {
          name: 'c',
          image: 'i',
          livenessProbe: { grpc: { port: 9000 } },
          readinessProbe: { exec: { command: ['x'] }, tcpSocket: { port: 80 } },
        },
      ],
    });
    assert.deepEqual(msgs(validatePodCreate(p, ctx())), [
      'spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
    ]);
  });

  it('validates scheduling gates and forbids nodeName with gates', () => {
    const p = pod({
      containers: [{ name: 'c', image: 'i' }],
      nodeName: 'n1',
      schedulingGates: [{ name: 'a/b' }, { name: 'a/b' }, { name: '-x' }],
    });
    const out = msgs(validatePodCreate(p, ctx()));
    assert.equal(out[0], 'spec.schedulingGates[1]: Duplicate value: "a/b"');
    assert.match(out[1]!, /^spec\.schedulingGates\[2\]: Invalid value: "-x": name part must consist of/);
    assert.equal(
      out[2],
      'spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared',
    );
  });

  it('validates env names and valueFrom', () => {
    const p = pod({
      containers: [
        {
          name: 'c',
          image: 'i',
          env: [
            { name: '1A' },
            { name: 'B', value: 'x', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
          ],
        },
      ],
    });
    const out = msgs(validatePodCreate(p, ctx()));
    assert.match(
      out[0]!,
      /^spec\.containers\[0\]\.env\[0\]\.name: Invalid value: "1A": a valid environment variable name must consist of/,
    );
    assert.equal(
      out[1],
      'spec.containers[0].env[1].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
    );
  });
});

describe('pod template validation', () => {
  it('validates labels at <path>.labels and the spec at <path>.spec', () => {
    const template: JsonObject = { metadata: { labels: { 'bad key!': 'v' } }, spec: { containers: [] } };
    const out = msgs(validatePodTemplateSpec(template, FieldPath.root('spec', 'template'), ctx()));
    assert.match(out[0]!, /^spec\.template\.labels: Invalid value: "bad key!"/);
    assert.ok(out.includes('spec.template.spec.containers: Required value'));
  });
});

describe('pod update validation', () => {
  it('allows image changes', () => {
    const old = basic();
    const next = cloneJson(old);
    ((next['spec'] as JsonObject)['containers'] as JsonObject[])[0]!['image'] = 'nginx:2';
    assert.deepEqual(msgs(validatePodUpdate(next, old, ctx())), []);
  });

  it('forbids other spec changes with the upstream list', () => {
    const old = basic();
    const next = cloneJson(old);
    (next['spec'] as JsonObject)['restartPolicy'] = 'Never';
    const out = msgs(validatePodUpdate(next, old, ctx()));
    assert.equal(out.length, 1);
    assert.ok(
      out[0]!.startsWith(
        'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n',
      ),
    );
    assert.match(out[0]!, /RestartPolicy/);
  });

  it('allows cpu/memory resize only with InPlacePodVerticalScaling', () => {
    const old = pod({ containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '1' } } }] });
    const next = cloneJson(old);
    ((next['spec'] as JsonObject)['containers'] as JsonObject[])[0]!['resources'] = {
      requests: { cpu: '2' },
    };
    assert.equal(validatePodUpdate(next, old, ctx()).length, 1);
    assert.deepEqual(msgs(validatePodUpdate(next, old, ctx(['InPlacePodVerticalScaling']))), []);
  });

  it('allows removing scheduling gates, not adding them', () => {
    const old = pod({ containers: [{ name: 'c', image: 'i' }], schedulingGates: [{ name: 'a' }] });
    const removed = cloneJson(old);
    delete (removed['spec'] as JsonObject)['schedulingGates'];
    assert.deepEqual(msgs(validatePodUpdate(removed, old, ctx())), []);
    const added = cloneJson(old);
    (added['spec'] as JsonObject)['schedulingGates'] = [{ name: 'a' }, { name: 'b' }];
    assert.deepEqual(msgs(validatePodUpdate(added, old, ctx())), [
      "spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'b'",
    ]);
  });

  it('forbids adding containers', () => {
    const old = basic();
    const next = cloneJson(old);
    ((next['spec'] as JsonObject)['containers'] as JsonObject[]).push({
      name: 'd',
      image: 'x',
      imagePullPolicy: 'Always',
      terminationMessagePolicy: 'File',
    });
    assert.deepEqual(msgs(validatePodUpdate(next, old, ctx())), [
      'spec.containers: Forbidden: pod updates may not add or remove containers',
    ]);
  });
});
