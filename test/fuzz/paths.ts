/**
 * Path tricks around a resource path: dot segments (plain and percent-encoded), encoded and
 * doubled slashes, trailing slashes, odd escapes, overlong segments and unknown subresources.
 */
import type { Prng } from './prng.js';

const segmentTricks: readonly string[] = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2e',
  '%2e',
  '%2F',
  'a%2Fb',
  '%00',
  '%',
  '%zz',
  '%E2%82',
  '%C0%AE%C0%AE',
  '%25',
  '~',
  'a;b=c',
  ';',
  '%3Fwatch=1',
  '%23frag',
  'a'.repeat(300),
  'x'.repeat(10_000),
  'ünï',
  '%F0%9F%98%80',
  '*',
  'status',
  'scale',
  'proxy',
];

/** `path` with one trick applied. */
export function trickPath(rng: Prng, path: string): string {
  const segments = path.split('/');
  return rng.weighted<() => string>([
    [3, () => `${path}/${rng.pick(segmentTricks)}`],
    [
      2,
      () => {
        const i = rng.int(1, segments.length - 1);
        return [...segments.slice(0, i), rng.pick(segmentTricks), ...segments.slice(i + 1)].join('/');
      },
    ],
    [
      2,
      () => {
        const i = rng.int(1, segments.length);
        return [...segments.slice(0, i), rng.pick(segmentTricks), ...segments.slice(i)].join('/');
      },
    ],
    [2, () => path.replace('/', '//')],
    [2, () => `/${path.slice(1).replaceAll('/', rng.pick(['//', '/./', '%2F', '/%2e/']))}`],
    [1, () => `${path}/`],
    [1, () => `${path}//`],
    [1, () => `${path}/${'../'.repeat(rng.int(1, 8))}`],
    [1, () => `${path}/${'..%2F'.repeat(rng.int(1, 8))}api/v1/namespaces/kube-system/secrets`],
    [1, () => path.toUpperCase()],
    [1, () => `/${'a/'.repeat(rng.int(10, 2000))}`],
    [1, () => `${path}#fragment`],
  ])();
}
