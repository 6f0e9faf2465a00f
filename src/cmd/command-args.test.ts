/** The small subcommands' arguments: both flag spellings, positionals, help, and refusals as Go's flag package words them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCommandArgs } from './command-args.js';

test('flags with values in both spellings, positionals in order, help', () => {
  const r = parseCommandArgs(['migrate', '--from', 'a', '--to=etcd', 'x', '-h'], new Set(['from', 'to']));
  assert.deepEqual(
    [...r.values],
    [
      ['from', 'a'],
      ['to', 'etcd'],
    ],
  );
  assert.deepEqual(r.positional, ['migrate', 'x']);
  assert.equal(r.help, true);
  assert.equal(parseCommandArgs(['--to=a=b'], new Set(['to'])).values.get('to'), 'a=b');
});

test('an unknown flag and a flag without its value are refused', () => {
  assert.throws(
    () => parseCommandArgs(['--bogus', 'x'], new Set(['from'])),
    /^FlagError: unknown flag: --bogus$/,
  );
  assert.throws(() => parseCommandArgs(['--from'], new Set(['from'])), /flag needs an argument: --from/);
});
