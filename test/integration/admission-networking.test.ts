/**
 * Integration: DefaultIngressClass on an in-process server over SQLite — an Ingress
 * created without a class gets the default IngressClass's name once one is marked default;
 * Ingresses naming theirs (in the field or the legacy annotation) are left alone, and so are
 * updates.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../../src/util/json.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

const ingresses = '/apis/networking.k8s.io/v1/namespaces/default/ingresses';

const ingress = (metadata: JsonObject, spec: JsonObject = {}): JsonObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata,
  spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...spec },
});

const ingressClass = (name: string, annotations: Record<string, string> = {}): JsonObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'IngressClass',
  metadata: { name, annotations },
  spec: { controller: 'example.com/ingress-controller' },
});

type Ingress = {
  metadata: { name: string; annotations?: Record<string, string> };
  spec: { ingressClassName?: string };
};

describe('DefaultIngressClass', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ controllers: false, nodes: 0, admission: { disable: ['ServiceAccount'] } });
  });
  after(async () => {
    await s.stop();
  });

  const create = async (body: JsonObject): Promise<Ingress> => {
    const r = await s.request('POST', ingresses, { body });
    assert.equal(r.status, 201, r.text);
    return r.json<Ingress>();
  };
  const stored = async (name: string): Promise<Ingress> => {
    const r = await s.request('GET', `${ingresses}/${name}`);
    assert.equal(r.status, 200, r.text);
    return r.json<Ingress>();
  };
  const createClass = async (body: JsonObject): Promise<void> => {
    const r = await s.request('POST', '/apis/networking.k8s.io/v1/ingressclasses', { body });
    assert.equal(r.status, 201, r.text);
  };

  it('without a default class an Ingress keeps no class', async () => {
    await createClass(ingressClass('internal'));
    await create(ingress({ name: 'early' }));
    assert.equal((await stored('early')).spec.ingressClassName, undefined);
  });

  it('with a default class an Ingress without one gets its name', async () => {
    await createClass(ingressClass('nginx', { 'ingressclass.kubernetes.io/is-default-class': 'true' }));
    // The plugin lists classes from the watch cache, a moment behind the write.
    const defaulted = await waitFor('the default IngressClass to reach the cache', async () => {
      const i = await create(ingress({ generateName: 'defaulted-' }));
      return i.spec.ingressClassName === 'nginx' ? i : undefined;
    });
    assert.equal((await stored(defaulted.metadata.name)).spec.ingressClassName, 'nginx');
  });

  it('an Ingress naming its class, in the field or the legacy annotation, keeps it', async () => {
    await create(ingress({ name: 'explicit' }, { ingressClassName: 'internal' }));
    assert.equal((await stored('explicit')).spec.ingressClassName, 'internal');
    await create(ingress({ name: 'legacy', annotations: { 'kubernetes.io/ingress.class': 'internal' } }));
    const legacy = await stored('legacy');
    assert.equal(legacy.spec.ingressClassName, undefined);
    assert.equal(legacy.metadata.annotations?.['kubernetes.io/ingress.class'], 'internal');
  });

  it('updates are left alone', async () => {
    // `early` was created before any default: an update does not give it one.
    const r = await s.request('PATCH', `${ingresses}/early`, {
      raw: JSON.stringify({ metadata: { labels: { touched: 'yes' } } }),
      contentType: 'application/merge-patch+json',
    });
    assert.equal(r.status, 200, r.text);
    assert.equal((await stored('early')).spec.ingressClassName, undefined);
  });
});
