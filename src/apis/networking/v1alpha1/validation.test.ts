import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonObject } from '../../../util/json.js';
import { addrString, parseAddr } from './netip.js';
import {
  validateClusterCIDR,
  validateClusterCIDRUpdate,
  validateIPAddress,
  validateIPAddressName,
  validateIPAddressUpdate,
} from './validation.js';

const msgs = (errs: readonly { toString(): string }[]): string[] => errs.map(String);

function ipAddress(name: string, spec: JsonObject): KubeObject {
  return { apiVersion: 'networking.k8s.io/v1alpha1', kind: 'IPAddress', metadata: { name }, spec };
}
function clusterCIDR(spec: JsonObject): KubeObject {
  return { apiVersion: 'networking.k8s.io/v1alpha1', kind: 'ClusterCIDR', metadata: { name: 'cc' }, spec };
}
const parentRef = { group: '', resource: 'services', namespace: 'default', name: 'web' };

test('netip: canonical forms and Go ParseAddr errors', () => {
  const canon = (s: string): string => addrString(parseAddr(s));
  assert.equal(canon('192.168.1.5'), '192.168.1.5');
  assert.equal(canon('2001:DB8:0:0:0::1'), '2001:db8::1');
  assert.equal(canon('2001:db8:0:0:1:0:0:1'), '2001:db8::1:0:0:1');
  assert.equal(canon('::'), '::');
  assert.equal(canon('::ffff:10.0.0.1'), '::ffff:10.0.0.1');
  assert.equal(canon('1:0:0:0:0:0:0:0'), '1::');
  assert.throws(() => parseAddr('10.01.2.3'), {
    message: 'ParseAddr("10.01.2.3"): IPv4 field has octet with leading zero',
  });
  assert.throws(() => parseAddr('foo'), { message: 'ParseAddr("foo"): unable to parse IP' });
  assert.throws(() => parseAddr('1.2.3'), { message: 'ParseAddr("1.2.3"): IPv4 address too short' });
  assert.throws(() => parseAddr('1.2..3'), {
    message: 'ParseAddr("1.2..3"): IPv4 field must have at least one digit (at ".3")',
  });
  assert.throws(() => parseAddr('1::2::3'), {
    message: 'ParseAddr("1::2::3"): multiple :: in address (at ":3")',
  });
});

test('IPAddress names must be IPs in canonical form', () => {
  assert.deepEqual(validateIPAddressName('10.0.0.1'), []);
  assert.deepEqual(validateIPAddressName('2001:db8::1'), []);
  assert.deepEqual(validateIPAddressName('2001:db8:0:0:0::1'), ['not a valid ip in canonical format']);
  assert.deepEqual(validateIPAddressName('10.01.2.3'), [
    'ParseAddr("10.01.2.3"): IPv4 field has octet with leading zero',
  ]);
  assert.deepEqual(msgs(validateIPAddress(ipAddress('10.0.0.1', { parentRef }))), []);
  assert.deepEqual(msgs(validateIPAddress(ipAddress('web', { parentRef }))), [
    'metadata.name: Invalid value: "web": ParseAddr("web"): unable to parse IP',
  ]);
});

test('IPAddress parentRef: required, group/resource/name/namespace rules, immutable', () => {
  assert.deepEqual(msgs(validateIPAddress(ipAddress('10.0.0.1', {}))), ['spec.parentRef: Required value']);
  assert.deepEqual(
    msgs(
      validateIPAddress(
        ipAddress('10.0.0.1', {
          parentRef: { group: 'Bad_Group', resource: '', name: 'a/b', namespace: '..' },
        }),
      ),
    ),
    [
      `spec.parentRef.group: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'spec.parentRef.resource: Required value',
      `spec.parentRef.name: Invalid value: "a/b": may not contain '/'`,
      `spec.parentRef.namespace: Invalid value: "..": may not be '..'`,
    ],
  );
  const old = ipAddress('10.0.0.1', { parentRef });
  assert.deepEqual(msgs(validateIPAddressUpdate(old, old)), []);
  assert.deepEqual(
    msgs(validateIPAddressUpdate(ipAddress('10.0.0.1', { parentRef: { ...parentRef, name: 'db' } }), old)),
    [
      'spec.parentRef: Invalid value: networking.ParentReference{Group:"", Resource:"services", Namespace:"default", Name:"db", UID:""}: field is immutable',
    ],
  );
});

test('ClusterCIDR spec: CIDRs per family, perNodeHostBits bounds, node selector', () => {
  assert.deepEqual(
    msgs(validateClusterCIDR(clusterCIDR({ perNodeHostBits: 8, ipv4: '10.0.0.0/16', ipv6: 'fd00::/64' }))),
    [],
  );
  assert.deepEqual(msgs(validateClusterCIDR(clusterCIDR({ perNodeHostBits: 8 }))), [
    'spec: Required value: one or both of `ipv4` and `ipv6` must be specified',
  ]);
  assert.deepEqual(
    msgs(validateClusterCIDR(clusterCIDR({ perNodeHostBits: 8, ipv4: 'fd00::/64', ipv6: '10.0.0.0/8/' }))),
    [
      'spec.IPv4: Invalid value: "fd00::/64": must be a valid IPv4 CIDR',
      // As upstream: the mask size of the IPv6 CIDR is taken against 32 bits.
      'spec.perNodeHostBits: Invalid value: 8: must be less than or equal to -32',
      'spec.IPv6: Invalid value: "10.0.0.0/8/": must be a valid CIDR: 10.0.0.0/8/',
    ],
  );
  assert.deepEqual(msgs(validateClusterCIDR(clusterCIDR({ perNodeHostBits: 2, ipv4: '10.0.0.0/31' }))), [
    'spec.perNodeHostBits: Invalid value: 2: must be greater than or equal to 4',
    'spec.perNodeHostBits: Invalid value: 2: must be less than or equal to 1',
  ]);
  assert.deepEqual(
    msgs(
      validateClusterCIDR(
        clusterCIDR({ perNodeHostBits: 8, ipv4: '10.0.0.0/16', nodeSelector: { nodeSelectorTerms: [] } }),
      ),
    ),
    ['spec.nodeSelector.nodeSelectorTerms: Required value: must have at least one node selector term'],
  );
});

test('ClusterCIDR spec is immutable field by field', () => {
  const sel = { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] };
  const old = clusterCIDR({ perNodeHostBits: 8, ipv4: '10.0.0.0/16', ipv6: '' });
  assert.deepEqual(msgs(validateClusterCIDRUpdate(old, old)), []);
  assert.deepEqual(
    msgs(
      validateClusterCIDRUpdate(
        clusterCIDR({ perNodeHostBits: 6, ipv4: '10.1.0.0/16', ipv6: 'fd00::/64', nodeSelector: sel }),
        old,
      ),
    ),
    [
      'spec.nodeSelector: Invalid value: core.NodeSelector{NodeSelectorTerms:[]core.NodeSelectorTerm{core.NodeSelectorTerm{MatchExpressions:[]core.NodeSelectorRequirement{core.NodeSelectorRequirement{Key:"zone", Operator:"In", Values:[]string{"a"}}}, MatchFields:[]core.NodeSelectorRequirement(nil)}}}: field is immutable',
      'spec.perNodeHostBits: Invalid value: 6: field is immutable',
      'spec.ipv4: Invalid value: "10.1.0.0/16": field is immutable',
      'spec.ipv6: Invalid value: "fd00::/64": field is immutable',
    ],
  );
});
