import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { securityContextDenyPlugin } from './security-context-deny.js';
import { attrsOf, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';

const pod = (spec: Record<string, unknown>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'ns' }, spec }) as KubeObject;
const write = (object: KubeObject, subresource = '', operation: 'CREATE' | 'UPDATE' = 'CREATE') =>
  attrsOf({ operation, resource: 'pods', kind: 'Pod', namespace: 'ns', subresource, object });

const deps = testDeps({ features: ['SecurityContextDeny'] });
const plugin = securityContextDenyPlugin(deps);

test('v1.27 builds the plugin only with its alpha feature gate', () => {
  assert.throws(() => securityContextDenyPlugin(testDeps()), {
    name: 'InitializationError',
    message:
      'SecurityContextDeny admission controller is an alpha feature, planned to be removed, and requires the SecurityContextDeny feature gate to be enabled, see https://k8s.io/docs/reference/access-authn-authz/admission-controllers/#securitycontextdeny for more information',
  });
});

async function refused(spec: Record<string, unknown>, message: string): Promise<void> {
  await assert.rejects(runPlugin(plugin, write(pod(spec))), (err) => {
    assert.deepEqual(statusOf(err), { code: 403, message: `pods "web" is forbidden: ${message}` });
    return true;
  });
}

test('SecurityContextDeny validates pod creates and updates, and says it is deprecated', () => {
  assert.equal(plugin.name, 'SecurityContextDeny');
  assert.deepEqual([...plugin.operations], ['CREATE', 'UPDATE']);
  assert.match(deps.logged[0] ?? '', /^SecurityContextDeny admission controller is deprecated\./);
});

test('pod-level fields are refused in upstream’s order and words', async () => {
  await refused(
    { securityContext: { fsGroup: 1, runAsUser: 1, supplementalGroups: [] } },
    'pod.Spec.SecurityContext.SupplementalGroups is forbidden',
  );
  await refused(
    { securityContext: { seLinuxOptions: {}, runAsUser: 0 } },
    'pod.Spec.SecurityContext.SELinuxOptions is forbidden',
  );
  await refused({ securityContext: { runAsUser: 0 } }, 'pod.Spec.SecurityContext.RunAsUser is forbidden');
  await refused({ securityContext: { fsGroup: 2000 } }, 'pod.Spec.SecurityContext.FSGroup is forbidden');
});

test('container-level seLinuxOptions and runAsUser are refused (init containers first)', async () => {
  await refused(
    {
      initContainers: [{ name: 'i', securityContext: { runAsUser: 1 } }],
      containers: [{ name: 'c', securityContext: { seLinuxOptions: { level: 's0' } } }],
    },
    'SecurityContext.RunAsUser is forbidden',
  );
  await refused(
    { containers: [{ name: 'c', securityContext: { seLinuxOptions: { level: 's0' } } }] },
    'SecurityContext.SELinuxOptions is forbidden',
  );
});

test('other security settings, ephemeral containers and subresources pass', async () => {
  await runPlugin(
    plugin,
    write(
      pod({
        securityContext: { runAsNonRoot: true, runAsGroup: 1 },
        containers: [{ name: 'c', securityContext: { privileged: false, runAsGroup: 3 } }],
        ephemeralContainers: [{ name: 'e', securityContext: { runAsUser: 0 } }],
      }),
    ),
  );
  await runPlugin(plugin, write(pod({ securityContext: { runAsUser: 0 } }), 'status', 'UPDATE'));
});
