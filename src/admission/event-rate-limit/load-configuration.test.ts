import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonValue } from '../../util/json.js';
import { loadConfiguration } from './load-configuration.js';

const apiVersion = 'eventratelimit.admission.k8s.io/v1alpha1';
const config = (limits: JsonValue): JsonValue => ({ apiVersion, kind: 'Configuration', limits });

function fails(value: JsonValue | undefined, message: string): void {
  assert.throws(() => loadConfiguration(value), { message });
}

test('valid configurations decode with defaults of zero', () => {
  assert.deepEqual(
    loadConfiguration(
      config([
        { type: 'Server', qps: 5, burst: 10 },
        { type: 'Namespace', qps: 2, burst: 4, cacheSize: 100, ignored: true },
        { type: 'User', qps: 1, burst: 1 },
        { type: 'SourceAndObject', qps: 1, burst: 1, cacheSize: null },
      ]),
    ),
    {
      limits: [
        { type: 'Server', qps: 5, burst: 10, cacheSize: 0 },
        { type: 'Namespace', qps: 2, burst: 4, cacheSize: 100 },
        { type: 'User', qps: 1, burst: 1, cacheSize: 0 },
        { type: 'SourceAndObject', qps: 1, burst: 1, cacheSize: 0 },
      ],
    },
  );
});

test('no configuration, or no limits, is refused as upstream refuses it', () => {
  fails(undefined, 'limits: Invalid value: []eventratelimit.Limit(nil): must not be empty');
  fails(
    { apiVersion, kind: 'Configuration' },
    'limits: Invalid value: []eventratelimit.Limit(nil): must not be empty',
  );
  fails(config([]), 'limits: Invalid value: []eventratelimit.Limit{}: must not be empty');
});

test('validation messages, aggregated', () => {
  fails(
    config([{ type: 'Namespace', qps: 0, burst: -1, cacheSize: -1 }]),
    '[limits[0].burst: Invalid value: -1: must be positive, limits[0].qps: Invalid value: 0: must be positive, limits[0].cacheSize: Invalid value: -1: must not be negative]',
  );
  fails(
    config([{ type: 'Cluster', qps: 1, burst: 1 }]),
    'limits[0].type: Unsupported value: "Cluster": supported values: "Server", "Namespace", "User", "SourceAndObject"',
  );
  fails(
    config([{ qps: 1, burst: 1 }]),
    'limits[0].type: Unsupported value: "": supported values: "Server", "Namespace", "User", "SourceAndObject"',
  );
  // A Server limit's cache size is not looked at.
  loadConfiguration(config([{ type: 'Server', qps: 1, burst: 1, cacheSize: -1 }]));
});

test('decoding errors: type meta and field types', () => {
  fails(
    { apiVersion, limits: [] },
    `Object 'Kind' is missing in '{"apiVersion":"${apiVersion}","limits":[]}'`,
  );
  fails({ kind: 'Configuration' }, `Object 'apiVersion' is missing in '{"kind":"Configuration"}'`);
  fails(
    { apiVersion: 'eventratelimit.admission.k8s.io/v1', kind: 'Configuration' },
    'no kind "Configuration" is registered for version "eventratelimit.admission.k8s.io/v1" in scheme "k8s.io/kubernetes/plugin/pkg/admission/eventratelimit/config.go"',
  );
  fails(
    config([{ type: 'Server', qps: 1.5, burst: 1 }]),
    'json: cannot unmarshal number 1.5 into Go struct field Limit.limits.qps of type int32',
  );
  fails(
    config([{ type: 'Server', qps: 1, burst: '2' }]),
    'json: cannot unmarshal string into Go struct field Limit.limits.burst of type int32',
  );
  fails(
    config([{ type: 7 }]),
    'json: cannot unmarshal number 7 into Go struct field Limit.limits.type of type v1alpha1.LimitType',
  );
  fails(
    config({}),
    'json: cannot unmarshal object into Go struct field Configuration.limits of type []v1alpha1.Limit',
  );
  fails(
    config(['x']),
    'json: cannot unmarshal string into Go struct field Configuration.limits of type v1alpha1.Limit',
  );
});
