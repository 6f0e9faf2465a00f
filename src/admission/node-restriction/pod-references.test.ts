import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import {
  referencesClaims,
  referencesConfigMaps,
  referencesSecrets,
  serviceAccountName,
} from './pod-references.js';

const pod = (spec: JsonObject): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec,
});

test('secret references: pull secrets, env of every container kind, volume sources', () => {
  const yes: JsonObject[] = [
    { imagePullSecrets: [{ name: 's' }] },
    { containers: [{ name: 'c', envFrom: [{ secretRef: { name: 's' } }] }] },
    {
      initContainers: [
        { name: 'c', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] },
      ],
    },
    { ephemeralContainers: [{ name: 'c', envFrom: [{ secretRef: { name: 's' } }] }] },
    { volumes: [{ name: 'v', secret: { secretName: 's' } }] },
    { volumes: [{ name: 'v', projected: { sources: [{ secret: { name: 's' } }] } }] },
    { volumes: [{ name: 'v', csi: { driver: 'd', nodePublishSecretRef: { name: 's' } } }] },
    { volumes: [{ name: 'v', azureFile: { secretName: 's', shareName: 'x' } }] },
    { volumes: [{ name: 'v', rbd: { monitors: [], image: 'i', secretRef: { name: 's' } } }] },
    { volumes: [{ name: 'v', scaleIO: { gateway: 'g', system: 's', secretRef: { name: 's' } } }] },
  ];
  for (const spec of yes) assert.equal(referencesSecrets(pod(spec)), true, JSON.stringify(spec));
  const no: JsonObject[] = [
    {},
    { imagePullSecrets: [{ name: '' }] },
    { volumes: [{ name: 'v', secret: {} }] },
    { volumes: [{ name: 'v', configMap: { name: 'c' } }] },
    { containers: [{ name: 'c', env: [{ name: 'E', value: 'x' }] }] },
  ];
  for (const spec of no) assert.equal(referencesSecrets(pod(spec)), false, JSON.stringify(spec));
});

test('config map references, claims and the service account name', () => {
  assert.equal(referencesConfigMaps(pod({ volumes: [{ name: 'v', configMap: { name: 'c' } }] })), true);
  assert.equal(
    referencesConfigMaps(
      pod({ volumes: [{ name: 'v', projected: { sources: [{ configMap: { name: 'c' } }] } }] }),
    ),
    true,
  );
  assert.equal(
    referencesConfigMaps(
      pod({
        containers: [
          { name: 'c', env: [{ name: 'E', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } }] },
        ],
      }),
    ),
    true,
  );
  assert.equal(referencesConfigMaps(pod({ volumes: [{ name: 'v', secret: { secretName: 's' } }] })), false);
  assert.equal(
    referencesClaims(pod({ volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] })),
    true,
  );
  assert.equal(referencesClaims(pod({ volumes: [{ name: 'v', emptyDir: {} }] })), false);
  assert.equal(serviceAccountName(pod({ serviceAccount: 'old' })), 'old');
  assert.equal(serviceAccountName(pod({ serviceAccountName: 'sa', serviceAccount: 'old' })), 'sa');
  assert.equal(serviceAccountName(pod({})), '');
});
