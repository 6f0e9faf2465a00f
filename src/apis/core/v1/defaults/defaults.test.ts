import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../../../util/json.js';
import { imageTag } from './container.js';
import { defaultNamespace } from './namespace.js';
import { defaultPod, defaultPodTemplateSpec } from './pod.js';
import { defaultSecret } from './secret.js';
import { defaultService } from './service.js';

describe('pod defaults', () => {
  it('fills the PodSpec and container defaults', () => {
    const pod: JsonObject = {
      spec: {
        containers: [
          {
            name: 'c',
            image: 'nginx',
            ports: [{ containerPort: 80 }],
            env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
            resources: { limits: { cpu: '1' } },
            livenessProbe: { httpGet: { port: 80 } },
          },
        ],
        volumes: [
          { name: 'a' },
          { name: 'b', configMap: { name: 'x' } },
          { name: 's', secret: { secretName: 'y' } },
        ],
      },
    };
    defaultPod(pod);
    assert.deepEqual(pod, {
      spec: {
        containers: [
          {
            name: 'c',
            image: 'nginx',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } }],
            resources: { limits: { cpu: '1' }, requests: { cpu: '1' } },
            livenessProbe: {
              httpGet: { port: 80, path: '/', scheme: 'HTTP' },
              timeoutSeconds: 1,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 3,
            },
            imagePullPolicy: 'Always',
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
          },
        ],
        volumes: [
          { name: 'a', emptyDir: {} },
          { name: 'b', configMap: { name: 'x', defaultMode: 420 } },
          { name: 's', secret: { secretName: 'y', defaultMode: 420 } },
        ],
        enableServiceLinks: true,
        dnsPolicy: 'ClusterFirst',
        restartPolicy: 'Always',
        securityContext: {},
        terminationGracePeriodSeconds: 30,
        schedulerName: 'default-scheduler',
      },
    });
  });

  it('leaves pod-only defaults out of templates', () => {
    const template: JsonObject = {
      spec: { containers: [{ name: 'c', image: 'nginx:1.25', resources: { limits: { cpu: '1' } } }] },
    };
    defaultPodTemplateSpec(template);
    const spec = template['spec'] as JsonObject;
    assert.equal(spec['enableServiceLinks'], undefined);
    assert.deepEqual((spec['containers'] as JsonObject[])[0]!['resources'], { limits: { cpu: '1' } });
    assert.equal((spec['containers'] as JsonObject[])[0]!['imagePullPolicy'], 'IfNotPresent');
  });

  it("turns a Pod's negative grace period into 1, not a template's (v1.27 #115606)", () => {
    const pod: JsonObject = { spec: { terminationGracePeriodSeconds: -5, containers: [] } };
    defaultPod(pod);
    assert.equal((pod['spec'] as JsonObject)['terminationGracePeriodSeconds'], 1);
    const template: JsonObject = { spec: { terminationGracePeriodSeconds: -5, containers: [] } };
    defaultPodTemplateSpec(template);
    assert.equal((template['spec'] as JsonObject)['terminationGracePeriodSeconds'], -5);
  });

  it('derives the pull policy from the image tag', () => {
    assert.equal(imageTag('nginx'), 'latest');
    assert.equal(imageTag('nginx:latest'), 'latest');
    assert.equal(imageTag('localhost:5000/app'), 'latest');
    assert.equal(imageTag('localhost:5000/app:v1'), 'v1');
    assert.equal(imageTag(`nginx@sha256:${'a'.repeat(64)}`), '');
    assert.equal(imageTag('Nginx'), '');
  });
});

describe('service defaults', () => {
  it('fills type, affinity, protocol, targetPort and traffic policies', () => {
    const svc: JsonObject = { spec: { ports: [{ port: 80 }] } };
    defaultService(svc);
    assert.deepEqual(svc, {
      spec: {
        ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
        sessionAffinity: 'None',
        type: 'ClusterIP',
        internalTrafficPolicy: 'Cluster',
      },
    });
  });

  it('defaults LoadBalancer and ClientIP extras; nothing for ExternalName traffic', () => {
    const lb: JsonObject = {
      spec: { type: 'LoadBalancer', sessionAffinity: 'ClientIP', ports: [{ port: 80, targetPort: 'http' }] },
    };
    defaultService(lb);
    const spec = lb['spec'] as JsonObject;
    assert.equal(spec['externalTrafficPolicy'], 'Cluster');
    assert.equal(spec['allocateLoadBalancerNodePorts'], true);
    assert.deepEqual(spec['sessionAffinityConfig'], { clientIP: { timeoutSeconds: 10800 } });
    assert.equal((spec['ports'] as JsonObject[])[0]!['targetPort'], 'http');
    const ext: JsonObject = { spec: { type: 'ExternalName', externalName: 'x.example.com' } };
    defaultService(ext);
    assert.equal((ext['spec'] as JsonObject)['internalTrafficPolicy'], undefined);
    // Switching back to None drops the config a ClientIP Service was given (NW: session affinity).
    const none: JsonObject = {
      spec: {
        sessionAffinity: 'None',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
        ports: [],
      },
    };
    defaultService(none);
    assert.equal((none['spec'] as JsonObject)['sessionAffinityConfig'], undefined);
  });
});

describe('namespace and secret defaults', () => {
  it('labels a namespace with its name and sets phase Active', () => {
    const ns: JsonObject = { metadata: { name: 'team-a' } };
    defaultNamespace(ns);
    assert.deepEqual(ns, {
      metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'team-a' } },
      status: { phase: 'Active' },
    });
  });

  it('types secrets Opaque and merges stringData into data', () => {
    const s: JsonObject = { data: { a: 'eA==' }, stringData: { b: 'hello' } };
    defaultSecret(s);
    assert.deepEqual(s, { data: { a: 'eA==', b: 'aGVsbG8=' }, type: 'Opaque' });
  });
});

describe('the deprecated serviceAccount field (the v1 round trip)', () => {
  const spec = (fields: JsonObject): JsonObject => {
    const template: JsonObject = { spec: { containers: [{ name: 'c', image: 'x' }], ...fields } };
    defaultPodTemplateSpec(template);
    return template['spec'] as JsonObject;
  };
  it('mirrors serviceAccountName, fills a missing name from it, and goes with an empty name', () => {
    const named = spec({ serviceAccountName: 'robot' });
    assert.equal(named['serviceAccount'], 'robot');
    const old = spec({ serviceAccount: 'legacy' });
    assert.equal(old['serviceAccountName'], 'legacy');
    assert.equal(old['serviceAccount'], 'legacy');
    const both = spec({ serviceAccountName: 'new', serviceAccount: 'old' });
    assert.equal(both['serviceAccount'], 'new');
    const none = spec({ serviceAccount: '' });
    assert.equal(none['serviceAccount'], undefined);
    assert.equal(none['serviceAccountName'], undefined);
  });
});
