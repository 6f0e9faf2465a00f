/**
 * The case generator: picks an endpoint family and builds one request from the run's seed and
 * the case's index, so `generate(seed, i)` is the same case on every run.
 */
import { METHODS } from 'node:http';
import { stringify } from 'yaml';
import { text } from './case.js';
import type { FuzzCase } from './case.js';
import { damagedJson, jsonBody } from './bodies.js';
import type { Body } from './bodies.js';
import { mutate } from './mutate.js';
import { randomPatch } from './patches.js';
import { trickPath } from './paths.js';
import { caseRng } from './prng.js';
import type { Prng } from './prng.js';
import { protobufBody } from './protobuf-bodies.js';
import { absurdQuery } from './queries.js';
import { subresourceCase } from './subresources.js';
import { documents, existingName, reviews, targets, validObject } from './targets.js';
import type { JsonMap, Target } from './targets.js';
import { randomString } from './values.js';
import { yamlBody } from './yaml-bodies.js';

const json = 'application/json';
const yaml = 'application/yaml';
const protobuf = 'application/vnd.kubernetes.protobuf';

/** Names new objects get: a small pool, so the store stays small and creates collide. */
function newName(rng: Prng): string {
  return `fz-new-${rng.int(0, 7)}`;
}

const wrongContentTypes: readonly string[] = [
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/json;;;',
  'application/json; a="unterminated',
  'APPLICATION/JSON',
  '*/*',
  'application/*',
  '',
  'garbage',
  ';',
  'application/vnd.kubernetes.protobuf;stream=watch',
  'application/json-patch+json',
  'application/cbor',
  'a'.repeat(5000),
];

const weirdAccepts: readonly string[] = [
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=Table;v=v1beta1;g=meta.k8s.io',
  'application/json;as=Table;v=v9;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  'application/json;as=APIGroupDiscoveryList;v=v2beta1;g=apidiscovery.k8s.io',
  'application/json;as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io',
  'application/json;as=Bogus;v=v1;g=meta.k8s.io',
  'application/vnd.kubernetes.protobuf',
  'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io',
  'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
  'application/yaml',
  'text/html',
  'image/png',
  '*/*;q=0',
  'application/json;q=abc',
  'application/json;q=0, text/plain',
  ',,,',
  '',
  'application/json;stream=watch',
  'a'.repeat(3000),
];

function bodyCase(family: string, method: string, path: string, contentType: string, body: Body): FuzzCase {
  return {
    family: `${family}/${body.what}`,
    method,
    path,
    headers: { 'content-type': contentType },
    body: body.parts,
    expect: body.expect,
  };
}

type Family = (rng: Prng) => FuzzCase;

function anyTarget(rng: Prng): Target {
  return rng.pick(targets);
}

const families: readonly (readonly [number, Family])[] = [
  [
    6,
    (rng) => {
      const t = anyTarget(rng);
      return bodyCase(
        'create',
        'POST',
        t.collection,
        json,
        jsonBody(mutate(rng, validObject(t, newName(rng)))),
      );
    },
  ],
  [
    6,
    (rng) => {
      const t = anyTarget(rng);
      return bodyCase(
        'create-damaged',
        'POST',
        t.collection,
        json,
        damagedJson(rng, validObject(t, newName(rng))),
      );
    },
  ],
  [
    3,
    (rng) => {
      const t = anyTarget(rng);
      const name = existingName(t);
      const body = rng.chance(0.7)
        ? jsonBody(mutate(rng, validObject(t, name)))
        : damagedJson(rng, validObject(t, name));
      return bodyCase('update', 'PUT', `${t.collection}/${name}`, json, body);
    },
  ],
  [
    6,
    (rng) => {
      const t = anyTarget(rng);
      const p = randomPatch(rng, validObject(t, existingName(t)));
      const path = `${t.collection}/${existingName(t)}`;
      return bodyCase('patch', 'PATCH', p.query === '' ? path : `${path}?${p.query}`, p.contentType, p.body);
    },
  ],
  [
    3,
    (rng) => {
      const t = anyTarget(rng);
      const put = rng.chance(0.3);
      const name = put ? existingName(t) : newName(rng);
      const obj = rng.chance(0.5) ? validObject(t, name) : mutate(rng, validObject(t, name));
      return bodyCase(
        'yaml',
        put ? 'PUT' : 'POST',
        put ? `${t.collection}/${name}` : t.collection,
        yaml,
        yamlBody(rng, obj),
      );
    },
  ],
  [
    3,
    (rng) => {
      const t = anyTarget(rng);
      const put = rng.chance(0.3);
      const name = put ? existingName(t) : newName(rng);
      const obj = rng.chance(0.5) ? validObject(t, name) : mutate(rng, validObject(t, name));
      const c = bodyCase(
        'protobuf',
        put ? 'PUT' : 'POST',
        put ? `${t.collection}/${name}` : t.collection,
        protobuf,
        protobufBody(rng, obj),
      );
      // Errors come back as protobuf when the client prefers it.
      const accept = rng.pick([json, `${protobuf}, ${json}`, protobuf]);
      return { ...c, headers: { ...c.headers, accept } };
    },
  ],
  [
    2,
    (rng) => {
      const t = anyTarget(rng);
      const contentType = rng.pick(wrongContentTypes);
      const obj = validObject(t, newName(rng));
      const method = rng.pick(['POST', 'PUT', 'PATCH']);
      const path = method === 'POST' ? t.collection : `${t.collection}/${existingName(t)}`;
      const body = rng.chance(0.5) ? stringify(obj) : JSON.stringify(obj);
      return {
        family: 'content-type',
        method,
        path,
        headers: { 'content-type': contentType },
        body: [text(body)],
        expect: 'any',
      };
    },
  ],
  [
    3,
    (rng) => {
      const t = anyTarget(rng);
      const base = rng.chance(0.5) ? t.collection : `${t.collection}/${existingName(t)}`;
      const method = rng.pick([
        'GET',
        'GET',
        'PUT',
        'POST',
        'PATCH',
        'DELETE',
        'HEAD',
        'OPTIONS',
        'CONNECT',
        'TRACE',
        'FOO',
      ]);
      const withBody = method === 'PUT' || method === 'POST' || method === 'PATCH';
      return {
        family: 'path',
        method,
        path: trickPath(rng, base),
        ...(withBody
          ? {
              headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : json },
              body: [text(JSON.stringify(validObject(t, newName(rng))))],
            }
          : {}),
        expect: 'any',
      };
    },
  ],
  [
    5,
    (rng) => {
      const t = anyTarget(rng);
      const verb = rng.pick(['list', 'list', 'watch', 'get', 'delete', 'deletecollection', 'create']);
      const q = absurdQuery(rng);
      const object = `${t.collection}/${rng.chance(0.8) ? existingName(t) : newName(rng)}`;
      switch (verb) {
        case 'watch':
          return {
            family: 'query/watch',
            method: 'GET',
            path: `${t.collection}?watch=1&timeoutSeconds=1&${q}`,
            expect: 'any',
          };
        case 'get':
          return { family: 'query/get', method: 'GET', path: `${object}?${q}`, expect: 'any' };
        case 'delete':
          return {
            family: 'query/delete',
            method: 'DELETE',
            path: `${t.collection}/${newName(rng)}?${q}`,
            expect: 'any',
          };
        case 'deletecollection':
          // Only new objects: a label no fixture carries.
          return {
            family: 'query/deletecollection',
            method: 'DELETE',
            path: `${t.collection}?labelSelector=fz-doomed%3Dyes&${q}`,
            expect: 'any',
          };
        case 'create':
          return {
            ...bodyCase(
              'query/create',
              'POST',
              `${t.collection}?${q}`,
              json,
              jsonBody(validObject(t, newName(rng))),
            ),
          };
        default:
          return { family: 'query/list', method: 'GET', path: `${t.collection}?${q}`, expect: 'any' };
      }
    },
  ],
  [
    2,
    (rng) => {
      const path = rng.pick(documents);
      const accept = rng.pick(weirdAccepts);
      const q = rng.chance(0.3) ? `?${absurdQuery(rng)}` : '';
      return {
        family: 'discovery',
        method: rng.chance(0.9) ? 'GET' : rng.pick(['POST', 'DELETE', 'HEAD', 'PUT']),
        path: rng.chance(0.2) ? trickPath(rng, path) : `${path}${q}`,
        headers: {
          accept,
          ...(rng.chance(0.2) ? { 'if-none-match': rng.pick(['"x"', '*', '', 'W/"abc"']) } : {}),
        },
        expect: 'any',
      };
    },
  ],
  [4, (rng) => subresourceCase(rng, rng.pick(targets.filter((t) => t.subresources.length > 0)))],
  [
    3,
    (rng) => {
      const r = rng.pick(reviews);
      const body = rng.chance(0.25) ? damagedJson(rng, r.valid) : jsonBody(mutate(rng, r.valid));
      const c = bodyCase(
        'review',
        'POST',
        rng.chance(0.1) ? `${r.path}?${absurdQuery(rng)}` : r.path,
        json,
        body,
      );
      if (rng.chance(0.1))
        return {
          ...c,
          method: rng.pick(['GET', 'PUT', 'DELETE', 'PATCH']),
          path: rng.chance(0.5) ? r.path : `${r.path}/x`,
        };
      return c;
    },
  ],
  [
    1,
    (rng) => {
      const t = anyTarget(rng);
      const options: JsonMap = { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 };
      const body = rng.chance(0.5) ? damagedJson(rng, options) : jsonBody(mutate(rng, options));
      return bodyCase('delete', 'DELETE', `${t.collection}/${newName(rng)}`, json, body);
    },
  ],
  [
    1,
    (rng) => {
      const t = anyTarget(rng);
      const header = rng.pick<[string, string]>([
        ['impersonate-user', randomString(rng)],
        ['impersonate-group', 'system:masters'],
        ['impersonate-uid', 'x'],
        ['impersonate-extra-', 'x'],
        ['audit-id', randomString(rng)],
        ['x-kubernetes-pf-flowschema-uid', 'x'],
        ['content-encoding', 'gzip'],
        ['expect', '100-continue'],
        ['origin', 'https://evil.example.com'],
        [
          'authorization',
          rng.pick(['Bearer ', 'Bearer x.y.z', 'Basic Zm9vOmJhcg==', 'Bogus', 'Bearer ' + 'a'.repeat(8000)]),
        ],
      ]);
      return {
        family: `headers/${header[0]}`,
        method: rng.pick(['GET', 'POST']),
        path: t.collection,
        headers: { [header[0]]: header[1].replace(/[^\x20-\x7e]/g, '?'), 'content-type': json },
        body: [text(JSON.stringify(validObject(t, newName(rng))))],
        expect: 'any',
      };
    },
  ],
];

/**
 * Whether Node's HTTP/1.1 parser refuses the request line before the server sees it (a method
 * llhttp does not know, bytes outside visible ASCII in the target): such cases go over HTTP/2.
 */
function h1Unparsable(c: FuzzCase): boolean {
  return !METHODS.includes(c.method) || /[^\x21-\x7e]/.test(c.path);
}

/** nghttp2 refuses a header field past 64 KiB, whatever the server's limit: those go over HTTP/1.1. */
const h2MaxField = 60_000;

/** Case `index` of the run with `seed`. */
export function generate(seed: number, index: number): FuzzCase {
  const rng = caseRng(seed, index);
  const c = rng.weighted(families)(rng);
  const h2 = (rng.chance(0.15) || h1Unparsable(c)) && c.path.length < h2MaxField;
  return h2 ? { ...c, http2: true } : c;
}
