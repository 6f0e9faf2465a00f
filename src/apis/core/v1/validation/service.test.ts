import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { cloneJson } from '../../../../util/json.js';
import type { JsonObject } from '../../../../util/json.js';
import { defaultService } from '../defaults/service.js';
import { serviceWarnings, validateService, validateServiceUpdate } from './service.js';

const msgs = (errs: FieldError[]): string[] => errs.map((e) => e.toString());
function svc(spec: JsonObject, annotations?: Record<string, string>): JsonObject {
  const s: JsonObject = {
    metadata: { name: 's', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec,
  };
  defaultService(s);
  return s;
}

describe('service validation', () => {
  it('accepts a defaulted ClusterIP service', () => {
    assert.deepEqual(
      msgs(validateService(svc({ ports: [{ port: 80 }], clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'] }))),
      [],
    );
  });

  it('requires ports, names when several, and valid numbers', () => {
    assert.deepEqual(msgs(validateService(svc({}))), ['spec.ports: Required value']);
    assert.deepEqual(
      msgs(validateService(svc({ ports: [{ port: 80 }, { port: 0, name: 'b', targetPort: 70000 }] }))),
      [
        'spec.ports[0].name: Required value',
        'spec.ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ],
    );
  });

  it('reports type, nodePort and externalName rules', () => {
    assert.deepEqual(msgs(validateService(svc({ type: 'Weird', ports: [{ port: 80 }] }))), [
      'spec.type: Unsupported value: "Weird": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ]);
    assert.deepEqual(msgs(validateService(svc({ ports: [{ port: 80, nodePort: 30000 }] }))), [
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
    assert.deepEqual(msgs(validateService(svc({ type: 'ExternalName' }))), [
      'spec.externalName: Required value',
    ]);
    assert.deepEqual(
      msgs(validateService(svc({ type: 'ExternalName', externalName: 'db.example.com.' }))),
      [],
    );
  });

  it('reports invalid cluster IPs', () => {
    assert.deepEqual(
      msgs(
        validateService(svc({ ports: [{ port: 80 }], clusterIP: '300.1.1.1', clusterIPs: ['300.1.1.1'] })),
      ),
      [
        'spec.clusterIPs[0]: Invalid value: "300.1.1.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    );
  });

  it('requires matching topology annotations', () => {
    const s = svc(
      { ports: [{ port: 80 }] },
      {
        'service.kubernetes.io/topology-mode': 'Auto',
        'service.kubernetes.io/topology-aware-hints': 'Disabled',
      },
    );
    assert.deepEqual(msgs(validateService(s)), [
      'metadata.annotations[service.kubernetes.io/topology-mode]: Invalid value: "Auto": must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified',
    ]);
  });

  it('keeps cluster IPs immutable', () => {
    const old = svc({ ports: [{ port: 80 }], clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'] });
    const next = cloneJson(old);
    (next['spec'] as JsonObject)['clusterIP'] = '10.0.0.2';
    (next['spec'] as JsonObject)['clusterIPs'] = ['10.0.0.2'];
    assert.deepEqual(msgs(validateServiceUpdate(next, old)), [
      'spec.clusterIPs[0]: Invalid value: []string{"10.0.0.2"}: may not change once set',
    ]);
  });
});

describe('service warnings', () => {
  it('warns about leading zeros and the deprecated topology annotation', () => {
    const s = svc(
      { ports: [{ port: 80 }], clusterIP: '010.096.000.011', clusterIPs: ['010.096.000.011'] },
      { 'service.kubernetes.io/topology-aware-hints': 'Auto' },
    );
    assert.deepEqual(serviceWarnings(s), [
      'annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead',
      'spec.clusterIPs[0]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("010.096.000.011"): IPv4 field has octet with leading zero',
    ]);
  });

  it('warns about non-canonical IPv6', () => {
    const s = svc({ ports: [{ port: 80 }], clusterIP: '2001:DB8::0:1', clusterIPs: ['2001:DB8::0:1'] });
    assert.deepEqual(serviceWarnings(s), [
      'spec.clusterIPs[0]: IPv6 address "2001:DB8::0:1" is not in RFC 5952 canonical format ("2001:db8::1"), which may cause controller apply-loops',
    ]);
  });
});
