/**
 * Absurd query parameters: negative and enormous limits, garbage continue tokens and
 * resourceVersions, enormous and broken label and field selectors, bad timeouts, watch with bad
 * parameters, unknown dryRun, fieldValidation, propagation and patch options, repeated keys.
 */
import type { Prng } from './prng.js';
import { enc, randomString } from './values.js';

/** A base64 text that decodes to JSON that looks like a continue token, but is not one. */
function fakeContinue(rng: Prng): string {
  const token = rng.pick<unknown>([
    { v: 'meta.k8s.io/v1', rv: -1, start: 'x' },
    { v: 'meta.k8s.io/v1', rv: 9e18, start: '../../../' },
    { v: 'meta.k8s.io/v1', rv: 1, start: '\u0000' },
    { v: 'other', rv: 1, start: 'a' },
    { v: 'meta.k8s.io/v1', rv: 'abc', start: 5 },
    { v: 'meta.k8s.io/v1' },
    [],
    'x',
  ]);
  return Buffer.from(JSON.stringify(token)).toString(rng.chance(0.5) ? 'base64' : 'base64url');
}

function labelSelector(rng: Prng): string {
  return rng.weighted<() => string>([
    [
      3,
      () =>
        rng.pick([
          '(((',
          'a in (',
          'a notin b',
          '!',
          '!!a',
          'a=b=c',
          'a==',
          '=b',
          'a,',
          ',',
          'a in ()',
          'a=' + 'x'.repeat(64),
          'k'.repeat(300) + '=v',
          'a>b',
          'a<-1',
          'a gt 1',
          'a!=',
          'a%3Db',
          'app=fz',
          'app in (fz,x)',
        ]),
    ],
    [1, () => Array.from({ length: rng.int(1000, 5000) }, (_, i) => `k${i}=v${i}`).join(',')],
    [1, () => 'a in (' + Array.from({ length: rng.int(1000, 20_000) }, (_, i) => `v${i}`).join(',') + ')'],
    [1, () => 'x'.repeat(rng.pick([1000, 100_000]))],
    [1, () => randomString(rng)],
  ])();
}

function fieldSelector(rng: Prng): string {
  return rng.weighted<() => string>([
    [
      3,
      () =>
        rng.pick([
          'a==b==c',
          'bogus.field=1',
          'metadata.name',
          'metadata.name==',
          'metadata.name=a,',
          'spec.nodeName!=x',
          'status.phase=Running',
          'metadata.namespace=default',
          '=',
          ',',
          'metadata.name=' + 'a'.repeat(300),
          'metadata.name in (a)',
          'metadata.name=a\\,b',
          'metadata.name=a\\',
          'spec.unknown=1',
        ]),
    ],
    [1, () => Array.from({ length: rng.int(500, 3000) }, () => 'metadata.name=x').join(',')],
    [1, () => randomString(rng)],
  ])();
}

const params: readonly (readonly [number, (rng: Prng) => string])[] = [
  [
    2,
    (rng) =>
      `limit=${rng.pick(['-1', '0', '-9223372036854775808', '9223372036854775808', '1.5', 'abc', '', '1e3', '0x10', '%201'])}`,
  ],
  [2, (rng) => `continue=${enc(rng.chance(0.5) ? fakeContinue(rng) : randomString(rng))}`],
  [
    2,
    (rng) =>
      `resourceVersion=${enc(rng.pick(['abc', '-1', '0', '1', '', '99999999999999', '18446744073709551616', '1.5', randomString(rng)]))}`,
  ],
  [1, (rng) => `resourceVersionMatch=${rng.pick(['NotOlderThan', 'Exact', 'Bogus', '', 'exact'])}`],
  [3, (rng) => `labelSelector=${enc(labelSelector(rng))}`],
  [3, (rng) => `fieldSelector=${enc(fieldSelector(rng))}`],
  [2, (rng) => `timeoutSeconds=${rng.pick(['-1', '0', '1', 'abc', '99999999999999999999', '1.5'])}`],
  [1, (rng) => `timeout=${rng.pick(['-1s', '0', '1ms', 'abc', '999999h', '1'])}`],
  [2, (rng) => `watch=${rng.pick(['true', '1', 'false', 'bogus', ''])}`],
  [1, (rng) => `allowWatchBookmarks=${rng.pick(['true', 'x'])}`],
  [1, (rng) => `sendInitialEvents=${rng.pick(['true', 'false', 'x'])}`],
  [2, (rng) => `dryRun=${rng.pick(['All', 'bogus', '', 'All&dryRun=All'])}`],
  [2, (rng) => `fieldValidation=${rng.pick(['Strict', 'Warn', 'Ignore', 'bogus', 'strict', ''])}`],
  [2, (rng) => `fieldManager=${enc(rng.pick(['fz', '', 'x'.repeat(200), '\u0000', randomString(rng)]))}`],
  [1, (rng) => `force=${rng.pick(['true', 'false', 'x', ''])}`],
  [1, (rng) => `propagationPolicy=${rng.pick(['Foreground', 'Bogus', ''])}`],
  [1, (rng) => `gracePeriodSeconds=${rng.pick(['-1', '0', 'x', '99999999999999999999'])}`],
  [1, (rng) => `orphanDependents=${rng.pick(['true', 'x'])}`],
  [1, (rng) => `pretty=${rng.pick(['true', 'x'])}`],
  [1, (rng) => `includeObject=${rng.pick(['Object', 'None', 'Metadata', 'Bogus'])}`],
  [1, (rng) => `container=${enc(randomString(rng))}`],
  [1, (rng) => `tailLines=${rng.pick(['-1', '0', 'x', '99999999999999999999'])}`],
  [1, (rng) => `sinceSeconds=${rng.pick(['-1', '0', 'x'])}`],
  [1, (rng) => `sinceTime=${rng.pick(['x', '2024-01-01T00:00:00Z'])}`],
  [1, (rng) => `limitBytes=${rng.pick(['-1', '0', 'x'])}`],
  [1, (rng) => `follow=${rng.pick(['true', 'x'])}`],
  [1, (rng) => `command=${enc(randomString(rng))}&stdout=${rng.pick(['true', 'x'])}`],
  [1, (rng) => `ports=${rng.pick(['-1', '0', '70000', 'x', '80,81'])}`],
  [1, (rng) => `${enc(randomString(rng))}=${enc(randomString(rng))}`],
  [1, () => 'a=%zz&%=&&=&'],
];

/** One to four absurd parameters joined into a query string (no leading `?`). */
export function absurdQuery(rng: Prng): string {
  const n = rng.int(1, 4);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(rng.weighted(params)(rng));
  return out.join('&');
}
