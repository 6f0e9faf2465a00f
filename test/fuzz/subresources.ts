/**
 * Cases for subresources (status, scale, binding, eviction, ephemeral containers, token
 * requests) and the kubelet-facing ones (log, exec, attach, portforward, proxy) with bodies and
 * parameters they do not expect.
 */
import { text } from './case.js';
import type { FuzzCase } from './case.js';
import { damagedJson, jsonBody } from './bodies.js';
import { mutate } from './mutate.js';
import { patchTypes, randomPatch } from './patches.js';
import type { Prng } from './prng.js';
import { absurdQuery } from './queries.js';
import { existingName, validObject } from './targets.js';
import type { JsonMap, Target } from './targets.js';

/** A valid body for a subresource of `t`'s object `name`. */
function validBody(t: Target, sub: string, name: string): JsonMap {
  switch (sub) {
    case 'scale':
      return {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name, namespace: 'default' },
        spec: { replicas: 2 },
      };
    case 'binding':
      return {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name },
        target: { apiVersion: 'v1', kind: 'Node', name: 'fz-node' },
      };
    case 'eviction':
      return {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name, namespace: 'default' },
        deleteOptions: { gracePeriodSeconds: 0 },
      };
    case 'token':
      return {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { audiences: ['x'], expirationSeconds: 3600 },
      };
    case 'ephemeralcontainers':
      return {
        ...validObject(t, name),
        spec: {
          containers: [{ name: 'c', image: 'nginx' }],
          ephemeralContainers: [{ name: 'dbg', image: 'busybox', targetContainerName: 'c' }],
        },
      };
    default:
      return validObject(t, name);
  }
}

const connectSubresources = new Set(['log', 'exec', 'attach', 'portforward', 'proxy']);

export function subresourceCase(rng: Prng, t: Target): FuzzCase {
  const sub = rng.pick(t.subresources);
  const name = existingName(t);
  const base = `${t.collection}/${name}/${sub}`;
  if (connectSubresources.has(sub)) {
    const method = rng.pick(['GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
    const rest = sub === 'proxy' ? rng.pick(['', '/', '/a/b', '/%2e%2e/%2e%2e', '/../../x', '?q=1']) : '';
    const path = `${base}${rest}${rng.chance(0.7) ? `${rest.includes('?') ? '&' : '?'}${absurdQuery(rng)}` : ''}`;
    return {
      family: `subresource/${sub}`,
      method,
      path,
      ...(method === 'POST' || method === 'PUT'
        ? { body: [text('{}')], headers: { 'content-type': 'application/json' } }
        : {}),
      expect: 'any',
    };
  }
  const valid = validBody(t, sub, name);
  const kind = rng.int(0, 3);
  if (kind === 0 && sub !== 'binding' && sub !== 'eviction' && sub !== 'token') {
    const p = randomPatch(rng, valid);
    return {
      family: `subresource/${sub}/patch`,
      method: 'PATCH',
      path: `${base}${p.query === '' ? '' : `?${p.query}`}`,
      headers: { 'content-type': p.contentType },
      body: p.body.parts,
      expect: p.body.expect,
    };
  }
  const body = kind === 1 ? damagedJson(rng, valid) : jsonBody(mutate(rng, valid));
  const method =
    sub === 'binding' || sub === 'eviction' || sub === 'token'
      ? 'POST'
      : rng.pick(['PUT', 'PUT', 'GET', 'POST']);
  return {
    family: `subresource/${sub}/${body.what}`,
    method,
    path: rng.chance(0.2) ? `${base}?${absurdQuery(rng)}` : base,
    headers: { 'content-type': rng.chance(0.9) ? 'application/json' : patchTypes.merge },
    body: body.parts,
    expect: 'any',
  };
}
