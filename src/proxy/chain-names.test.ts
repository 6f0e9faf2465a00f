import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { endpointChain, isServiceChain, serviceChains } from './chain-names.js';

describe('kube-proxy chain names', () => {
  test("hash the service port name and protocol as upstream's proxier_test goldens show", () => {
    assert.deepEqual(serviceChains('ns1/svc1:p80', 'tcp'), {
      svc: 'KUBE-SVC-XPGD46QRK7WJZT7O',
      svl: 'KUBE-SVL-XPGD46QRK7WJZT7O',
      ext: 'KUBE-EXT-XPGD46QRK7WJZT7O',
      fw: 'KUBE-FW-XPGD46QRK7WJZT7O',
    });
    assert.equal(serviceChains('ns2/svc2:p80', 'tcp').svc, 'KUBE-SVC-GNZBNJ2PO5MGZ6GT');
    assert.equal(serviceChains('ns1/svc1', 'tcp').svc, 'KUBE-SVC-AQI2S6QIMU7PVVRP');
    assert.equal(serviceChains('ns2/svc2:p8080', 'tcp').svc, 'KUBE-SVC-2VJB64SDSIJUP5T6');
    assert.equal(endpointChain('ns1/svc1:p80', 'tcp', '10.180.0.1:80'), 'KUBE-SEP-SXIVWICOYRO3J4NJ');
    assert.equal(endpointChain('ns4/svc4:p80', 'tcp', '10.180.0.5:80'), 'KUBE-SEP-C6EBXVWJJZMIWKLZ');
    assert.equal(endpointChain('ns1/svc1', 'tcp', '10.0.1.1:80'), 'KUBE-SEP-3JOIVZTXZZRGORX4');
  });

  test('only per-service chains count as the proxy’s to delete', () => {
    assert.ok(isServiceChain('KUBE-SEP-SXIVWICOYRO3J4NJ'));
    assert.ok(isServiceChain('KUBE-FW-XPGD46QRK7WJZT7O'));
    assert.ok(!isServiceChain('KUBE-SERVICES'));
    assert.ok(!isServiceChain('KUBE-MARK-MASQ'));
  });
});
