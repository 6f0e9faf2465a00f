import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { webhookPoster } from '../../apiserver/webhook/post.js';
import {
  admissionResponse,
  hostAddress,
  startWebhookServer,
} from '../../admission/testing/webhook-server.js';
import { apiErrors } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import type { ListResult } from '../../registry/generic/store.js';
import type { ListRequest } from '../../registry/options.js';
import type { JsonObject } from '../../util/json.js';
import { serviceNameLabel, serviceResolver } from './service-resolver.js';
import type { ResolverReads } from './service-resolver.js';

/**
 * A store over fixed objects. `cached` objects are what a read at resourceVersion 0 (the watch
 * cache) sees; `live` ones only a storage read sees. Records the reads made.
 */
function store(
  resource: string,
  cached: readonly KubeObject[],
  live: readonly KubeObject[] = cached,
): ResolverReads & { reads: string[] } {
  const reads: string[] = [];
  const pick = (rv: string | undefined): readonly KubeObject[] => (rv === '0' ? cached : live);
  return {
    reads,
    get: (ns: string, name: string, rv?: string): Promise<KubeObject> => {
      reads.push(`get ${ns}/${name}${rv === '0' ? ' cached' : ''}`);
      const found = pick(rv).find((o) => o.metadata.namespace === ns && o.metadata.name === name);
      return found !== undefined
        ? Promise.resolve(found)
        : Promise.reject(apiErrors.notFound({ group: '', resource }, name));
    },
    list: (ns: string, req: ListRequest): Promise<ListResult> => {
      reads.push(`list ${ns} ${req.labelSelector ?? ''}${req.resourceVersion === '0' ? ' cached' : ''}`);
      const [key, value] = (req.labelSelector ?? '').split('=');
      const items = pick(req.resourceVersion).filter(
        (o) =>
          o.metadata.namespace === ns &&
          (key === undefined || key === '' || o.metadata.labels?.[key] === value),
      );
      return Promise.resolve({ items: [...items], resourceVersion: '1' });
    },
  };
}

function service(name: string, spec: JsonObject, ns = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec };
}

function slice(name: string, serviceName: string, body: JsonObject, ns = 'default'): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name, namespace: ns, labels: { [serviceNameLabel]: serviceName } },
    addressType: 'IPv4',
    ...body,
  };
}

function endpoints(name: string, subsets: JsonObject[], ns = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace: ns }, subsets };
}

const hookService = service('hook', {
  type: 'ClusterIP',
  ports: [{ name: 'https', port: 443, targetPort: 8443 }],
});

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
}

describe('serviceResolver', () => {
  it('resolves through an EndpointSlice: the port of the same name, a ready endpoint first address', async () => {
    const resolve = serviceResolver({
      services: store('services', [hookService]),
      endpointSlices: store('endpointslices', [
        slice('hook-other', 'other', {
          ports: [{ name: 'https', port: 1 }],
          endpoints: [{ addresses: ['10.0.0.9'] }],
        }),
        slice('hook-abc', 'hook', {
          ports: [
            { name: 'metrics', port: 9090 },
            { name: 'https', port: 8443 },
          ],
          endpoints: [
            { addresses: ['10.0.0.1'], conditions: { ready: false } },
            { addresses: ['10.0.0.2', '10.0.0.3'], conditions: { ready: true } },
          ],
        }),
      ]),
      endpoints: store('endpoints', []),
    });
    assert.deepEqual(await resolve('default', 'hook', 443), { host: '10.0.0.2', port: 8443 });
  });

  it('takes endpoints without a ready condition, and unnamed ports for unnamed service ports', async () => {
    const resolve = serviceResolver({
      services: store('services', [service('hook', { ports: [{ port: 443 }] })]),
      endpointSlices: store('endpointslices', [
        slice('s', 'hook', { ports: [{ port: 9443 }], endpoints: [{ addresses: ['127.0.0.1'] }] }),
      ]),
      endpoints: store('endpoints', []),
    });
    assert.deepEqual(await resolve('default', 'hook', 443), { host: '127.0.0.1', port: 9443 });
  });

  it("prefers slices of the service's first IP family", async () => {
    const resolve = serviceResolver({
      services: store('services', [
        service('hook', { ipFamilies: ['IPv6', 'IPv4'], ports: [{ name: 'https', port: 443 }] }),
      ]),
      endpointSlices: store('endpointslices', [
        slice('v4', 'hook', {
          ports: [{ name: 'https', port: 8443 }],
          endpoints: [{ addresses: ['10.0.0.1'] }],
        }),
        slice('v6', 'hook', {
          addressType: 'IPv6',
          ports: [{ name: 'https', port: 8443 }],
          endpoints: [{ addresses: ['fd00::1'] }],
        }),
      ]),
      endpoints: store('endpoints', []),
    });
    assert.deepEqual(await resolve('default', 'hook', 443), { host: 'fd00::1', port: 8443 });
  });

  it('falls back to Endpoints when no slice has a usable endpoint, or slices are not served', async () => {
    const eps = endpoints('hook', [
      { addresses: [], ports: [{ name: 'https', port: 1 }] },
      { addresses: [{ ip: '10.1.0.1' }], ports: [{ name: 'https', port: 8443 }] },
    ]);
    const notReady = serviceResolver({
      services: store('services', [hookService]),
      endpointSlices: store('endpointslices', [
        slice('s', 'hook', {
          ports: [{ name: 'https', port: 8443 }],
          endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: false } }],
        }),
      ]),
      endpoints: store('endpoints', [eps]),
    });
    assert.deepEqual(await notReady('default', 'hook', 443), { host: '10.1.0.1', port: 8443 });
    const noSlices = serviceResolver({
      services: store('services', [hookService]),
      endpoints: store('endpoints', [eps]),
    });
    assert.deepEqual(await noSlices('default', 'hook', 443), { host: '10.1.0.1', port: 8443 });
  });

  it('reads the caches first and storage only when they have nothing usable', async () => {
    const s = slice('s', 'hook', {
      ports: [{ name: 'https', port: 8443 }],
      endpoints: [{ addresses: ['10.0.0.5'] }],
    });
    const services = store('services', [], [hookService]);
    const slices = store('endpointslices', [], [s]);
    const eps = store('endpoints', []);
    const resolve = serviceResolver({ services, endpointSlices: slices, endpoints: eps });
    assert.deepEqual(await resolve('default', 'hook', 443), { host: '10.0.0.5', port: 8443 });
    assert.deepEqual(services.reads, ['get default/hook cached', 'get default/hook']);
    assert.deepEqual(slices.reads, [
      `list default ${serviceNameLabel}=hook cached`,
      `list default ${serviceNameLabel}=hook`,
    ]);
    assert.deepEqual(eps.reads, ['get default/hook cached']);
    const cachedOnly = store('endpointslices', [s]);
    const fast = serviceResolver({
      services: store('services', [hookService]),
      endpointSlices: cachedOnly,
      endpoints: eps,
    });
    await fast('default', 'hook', 443);
    assert.deepEqual(cachedOnly.reads, [`list default ${serviceNameLabel}=hook cached`]);
  });

  it('answers an ExternalName service with its name, and fails as upstream otherwise', async () => {
    const services = store('services', [
      hookService,
      service('ext', { type: 'ExternalName', externalName: 'hooks.example.com' }),
      service('odd', { type: 'Weird', ports: [{ port: 443 }] }),
    ]);
    const resolve = serviceResolver({
      services,
      endpointSlices: store('endpointslices', [
        slice('s', 'hook', { ports: [{ name: 'other', port: 1 }], endpoints: [{ addresses: ['10.0.0.1'] }] }),
      ]),
      endpoints: store('endpoints', []),
    });
    assert.deepEqual(await resolve('default', 'ext', 443), { host: 'hooks.example.com', port: 443 });
    assert.equal(await failure(resolve('default', 'missing', 443)), 'service "missing" not found');
    assert.equal(
      await failure(resolve('default', 'hook', 444)),
      'no service port 444 found for service "hook"',
    );
    assert.equal(await failure(resolve('default', 'odd', 443)), 'unsupported service type "Weird"');
    assert.equal(await failure(resolve('default', 'hook', 443)), 'no endpoints available for service "hook"');
  });

  it('lets a selector-less Service with a hand-made EndpointSlice reach a webhook on the host', async () => {
    // The API refuses loopback endpoint addresses: listen where a real slice could point.
    const address = hostAddress() ?? '127.0.0.1';
    const server = await startWebhookServer({
      dnsNames: ['hook.default.svc'],
      listen: address,
      handlers: { '/validate': (r) => admissionResponse(r) },
    });
    const resolve = serviceResolver({
      services: store('services', [hookService]),
      endpointSlices: store('endpointslices', [
        slice('hook-1', 'hook', {
          ports: [{ name: 'https', port: server.port, protocol: 'TCP' }],
          endpoints: [{ addresses: [address], conditions: { ready: true } }],
        }),
      ]),
      endpoints: store('endpoints', []),
    });
    const post = webhookPoster({ resolveService: resolve });
    try {
      const review = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'u-1' } };
      const answer = await post(
        {
          service: { namespace: 'default', name: 'hook', path: '/validate', port: 443 },
          caBundle: server.caBundle,
        },
        review,
        { timeoutMs: 10_000 },
      );
      assert.deepEqual(answer, admissionResponse(review));
      assert.equal(server.calls('/validate'), 1);
      const unknownPort = await failure(
        post(
          {
            service: { namespace: 'default', name: 'hook', path: '/validate', port: 8443 },
            caBundle: server.caBundle,
          },
          review,
          { timeoutMs: 10_000 },
        ),
      );
      assert.equal(
        unknownPort,
        'Post "https://hook.default.svc:8443/validate?timeout=10s": no service port 8443 found for service "hook"',
      );
    } finally {
      post.close();
      await server.close();
    }
  });
});
