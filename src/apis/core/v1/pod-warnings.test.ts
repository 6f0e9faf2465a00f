import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { persistentVolumeClaimSpecWarnings, podSpecWarnings } from './pod-warnings.js';

describe('pod warnings (v1.27 warningsForPodSpecAndMeta)', () => {
  it('warns about fractional overhead bytes after the pull secrets, before the containers', () => {
    const warnings = podSpecWarnings(
      'spec.template',
      {
        overhead: { memory: '0.5', 'ephemeral-storage': '1Ki', cpu: '0.5' },
        imagePullSecrets: [{}],
        containers: [{ name: 'c', resources: { limits: { 'ephemeral-storage': '1m' } } }],
      },
      undefined,
    );
    assert.deepEqual(warnings, [
      'spec.template.spec.imagePullSecrets[0].name: invalid empty name ""',
      'spec.template.spec.overhead[memory]: fractional byte value "500m" is invalid, must be an integer',
      'spec.template.spec.containers[0].resources.limits[ephemeral-storage]: fractional byte value "1m" is invalid, must be an integer',
    ]);
  });

  it('keeps the (unreachable) duplicate volume name warning v1.27 still had', () => {
    assert.deepEqual(podSpecWarnings('', { volumes: [{ name: 'v' }, { name: 'v' }] }, undefined), [
      'spec.volumes[1].name: duplicate name "v"',
    ]);
  });

  it('checks claim specs as pvcutil.GetWarningsForPersistentVolumeClaimSpec', () => {
    assert.deepEqual(
      persistentVolumeClaimSpecWarnings('spec', {
        resources: { requests: { storage: '1Gi' }, limits: { storage: '2.5' } },
      }),
      ['spec.resources.limits[storage]: fractional byte value "2500m" is invalid, must be an integer'],
    );
  });
});
