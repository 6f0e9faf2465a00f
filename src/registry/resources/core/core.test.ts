import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '../../../machinery/object.js';
import type { StrategyContext } from '../../strategy.js';
import { podDefaultGracePeriod, podSelectableFields, podsResource } from './pods.js';
import { coreV1Resources } from './index.js';
import { namespacesResource } from './namespaces.js';
import { servicesResource } from './services.js';
import { eventSelectableFields } from './events.js';

const ctx: StrategyContext = { namespace: 'default', features: { enabled: () => false } };
function kobj(kind: string, name: string, rest: Record<string, unknown>): KubeObject {
  return JSON.parse(
    JSON.stringify({ apiVersion: 'v1', kind, metadata: { name, namespace: 'default' }, ...rest }),
  ) as KubeObject;
}

describe('pods strategy', () => {
  it('sets Pending, the QoS class and the SchedulingGated condition on create', () => {
    const pod = kobj('Pod', 'p', {
      spec: {
        containers: [
          {
            name: 'c',
            image: 'i',
            resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } },
          },
        ],
        schedulingGates: [{ name: 'g' }],
      },
      status: { phase: 'Running' },
    });
    podsResource.strategy.prepareForCreate(ctx, pod);
    assert.deepEqual(pod['status'], {
      phase: 'Pending',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          lastProbeTime: null,
          lastTransitionTime: null,
          reason: 'SchedulingGated',
          message: 'Scheduling is blocked due to non-empty scheduling gates',
        },
      ],
      qosClass: 'Guaranteed',
    });
    const plain = kobj('Pod', 'p', { spec: { containers: [{ name: 'c', image: 'i' }] } });
    podsResource.strategy.prepareForCreate(ctx, plain);
    assert.deepEqual(plain['status'], { phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('warns about pod names that are not DNS labels', () => {
    const pod = kobj('Pod', 'my.pod', { spec: { containers: [{ name: 'c', image: 'i' }] } });
    assert.deepEqual(podsResource.strategy.warningsOnCreate(ctx, pod), [
      "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
    ]);
  });

  it('exposes field selectors and the grace period', () => {
    const pod = kobj('Pod', 'p', {
      spec: { nodeName: 'n1', restartPolicy: 'Always', terminationGracePeriodSeconds: 5 },
      status: { phase: 'Running', podIPs: [{ ip: '10.1.0.5' }] },
    });
    assert.deepEqual(podSelectableFields(pod), {
      'spec.nodeName': 'n1',
      'spec.restartPolicy': 'Always',
      'spec.schedulerName': '',
      'spec.serviceAccountName': '',
      'status.phase': 'Running',
      'status.podIP': '10.1.0.5',
      'status.nominatedNodeName': '',
    });
    assert.equal(podDefaultGracePeriod(pod), 5);
    assert.equal(podDefaultGracePeriod(kobj('Pod', 'p', { spec: {} })), 0);
  });
});

describe('namespaces strategy', () => {
  it('adds the kubernetes finalizer and phase Active, and keeps finalizers on update', () => {
    const ns = kobj('Namespace', 'team', { spec: {} });
    namespacesResource.strategy.prepareForCreate(ctx, ns);
    assert.deepEqual(ns['spec'], { finalizers: ['kubernetes'] });
    assert.deepEqual(ns['status'], { phase: 'Active' });
    const next = kobj('Namespace', 'team', { spec: { finalizers: [] } });
    namespacesResource.strategy.prepareForUpdate(ctx, next, ns);
    assert.deepEqual(next['spec'], { finalizers: ['kubernetes'] });
    namespacesResource.strategy.canonicalize(next);
    assert.equal(next.metadata.labels?.['kubernetes.io/metadata.name'], 'team');
  });
});

describe('services strategy', () => {
  it('fills clusterIPs on create and keeps allocated values on update', () => {
    const svc = kobj('Service', 's', {
      spec: {
        type: 'NodePort',
        clusterIP: '10.0.0.9',
        ports: [{ port: 80, protocol: 'TCP', nodePort: 30080 }],
      },
    });
    servicesResource.strategy.prepareForCreate(ctx, svc);
    assert.deepEqual((svc['spec'] as Record<string, unknown>)['clusterIPs'], ['10.0.0.9']);
    assert.deepEqual(svc['status'], { loadBalancer: {} });
    const next = kobj('Service', 's', { spec: { type: 'NodePort', ports: [{ port: 80, protocol: 'TCP' }] } });
    servicesResource.strategy.prepareForUpdate(ctx, next, svc);
    const spec = next['spec'] as Record<string, unknown>;
    assert.equal(spec['clusterIP'], '10.0.0.9');
    assert.deepEqual(spec['clusterIPs'], ['10.0.0.9']);
    assert.deepEqual(spec['ports'], [{ port: 80, protocol: 'TCP', nodePort: 30080 }]);
  });
});

describe('events', () => {
  it('falls back to reportingComponent for source', () => {
    const ev = kobj('Event', 'e', {
      involvedObject: { kind: 'Pod', name: 'p' },
      reportingComponent: 'kubelet',
      reason: 'Started',
      type: 'Normal',
    });
    const f = eventSelectableFields(ev);
    assert.equal(f['source'], 'kubelet');
    assert.equal(f['involvedObject.kind'], 'Pod');
  });
});

describe('resource infos', () => {
  const ref = fileURLToPath(
    new URL(
      '../../../../../shared/reference/kube-apiserver-v1.28.7/default/discovery/api_v1.json',
      import.meta.url,
    ),
  );
  it(
    'match the reference discovery',
    { skip: existsSync(ref) ? false : `reference data absent: ${ref}` },
    () => {
      const doc = JSON.parse(readFileSync(ref, 'utf8')) as {
        resources: {
          name: string;
          singularName: string;
          namespaced: boolean;
          kind: string;
          verbs: string[];
          shortNames?: string[];
          categories?: string[];
        }[];
      };
      for (const { info } of coreV1Resources) {
        const r = doc.resources.find((x) => x.name === info.resource);
        assert.ok(r, info.resource);
        assert.equal(info.singular, r.singularName);
        assert.equal(info.namespaced, r.namespaced);
        assert.equal(info.kind, r.kind);
        assert.deepEqual([...info.verbs], r.verbs, info.resource);
        assert.deepEqual(info.shortNames ?? [], r.shortNames ?? [], info.resource);
        assert.deepEqual(info.categories ?? [], r.categories ?? [], info.resource);
        assert.equal(
          info.statusSubresource === true,
          doc.resources.some((x) => x.name === `${info.resource}/status`),
          info.resource,
        );
      }
    },
  );
});
