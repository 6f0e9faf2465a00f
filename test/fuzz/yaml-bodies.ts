/**
 * YAML bodies (`application/yaml`): the object as YAML, alias bombs that expand exponentially,
 * tags, merge keys, several documents, deep flow nesting and broken syntax.
 */
import { stringify } from 'yaml';
import { text } from './case.js';
import type { Body } from './bodies.js';
import type { Prng } from './prng.js';
import type { JsonMap } from './targets.js';

/** The classic "billion laughs": each level's list holds `width` aliases of the level before. */
function aliasBomb(levels: number, width: number): string {
  const lines = ['a0: &a0 ["lol"]'];
  for (let i = 1; i <= levels; i++) {
    lines.push(`a${i}: &a${i} [${Array.from({ length: width }, () => `*a${i - 1}`).join(', ')}]`);
  }
  return lines.join('\n') + '\n';
}

export function yamlBody(rng: Prng, obj: JsonMap): Body {
  const doc = stringify(obj);
  return rng.weighted<() => Body>([
    [4, () => ({ parts: [text(doc)], expect: 'any', what: 'yaml' })],
    [
      3,
      () => {
        const levels = rng.int(3, 12);
        const width = rng.int(2, 10);
        return {
          parts: [text(doc + aliasBomb(levels, width))],
          expect: 'any',
          what: `alias bomb ${levels}x${width}`,
        };
      },
    ],
    [
      1,
      () => ({
        parts: [text(`${doc}spec: &s\n  x: *s\n`)],
        expect: 'any',
        what: 'recursive alias',
      }),
    ],
    [
      2,
      () => {
        const tag = rng.pick([
          '!!binary aGVsbG8=',
          '!!python/object/apply:os.system ["true"]',
          '!!set {a, b}',
          '!!omap [a: 1, b: 2]',
          '!!timestamp 2024-01-01',
          '!!float .nan',
          '!!float .inf',
          '!!int 0x1F',
          '!!str',
          '!custom {a: 1}',
          '!<tag:yaml.org,2002:map> {}',
          '!!merge <<',
          '0o777',
          '1_000',
          '~',
          'yes',
          '2024-01-01T00:00:00Z',
        ]);
        return { parts: [text(`${doc}extra: ${tag}\n`)], expect: 'any', what: `tag ${tag}` };
      },
    ],
    [
      1,
      () => ({
        parts: [text(`base: &b {a: 1}\n${doc}metadata2:\n  <<: *b\n  <<: [*b, *b]\n`)],
        expect: 'any',
        what: 'merge keys',
      }),
    ],
    [
      2,
      () => ({
        parts: [
          text(
            rng.pick([
              `${doc}---\n${doc}`,
              `---\n---\n${doc}`,
              `${doc}...\n---\nkind: Secret\n`,
              '---\n',
              '',
            ]),
          ),
        ],
        expect: 'any',
        what: 'documents',
      }),
    ],
    [
      1,
      () => {
        const n = rng.pick([100, 5000, 20_000]);
        return {
          parts: [text(`${doc}deep: `), text('[', n), text(']', n), text('\n')],
          expect: 'any',
          what: `flow nesting ${n}`,
        };
      },
    ],
    [
      2,
      () => ({
        parts: [
          text(
            rng.pick([
              'a: [',
              'a: {b',
              '\tkind: Pod',
              'kind: "unterminated',
              'a: b: c',
              '- a\nb: c',
              '? [a, b]\n: c',
              `${doc}  bad indent: [\n`,
              '&a a: *b',
              '%YAML 9.9\n---\na: 1',
              '@reserved',
              '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}',
            ]),
          ),
        ],
        expect: 'any',
        what: 'broken yaml',
      }),
    ],
  ])();
}
