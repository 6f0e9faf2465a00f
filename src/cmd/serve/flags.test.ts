import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FeatureGateError } from '../../machinery/features.js';
import { FlagError, parseServeFlags } from './flags.js';

test('defaults match the documented flags', () => {
  const o = parseServeFlags([]);
  assert.equal(o.dataDir, './.nanokube');
  assert.equal(o.bindAddress, '127.0.0.1');
  assert.equal(o.securePort, 6443);
  assert.equal(o.storage, 'sqlite');
  assert.equal(o.synchronous, undefined);
});

test('flags in both spellings', () => {
  const o = parseServeFlags([
    '--data-dir=/tmp/x',
    '--secure-port',
    '0',
    '--storage=memory',
    '--feature-gates=WatchList=true,InPlacePodVerticalScaling=true',
    '-v',
    '4',
    '--sqlite-synchronous=normal',
    '--write-kubeconfig',
    '/tmp/kc',
  ]);
  assert.equal(o.dataDir, '/tmp/x');
  assert.equal(o.securePort, 0);
  assert.equal(o.storage, 'memory');
  assert.deepEqual(o.featureGates, { WatchList: true, InPlacePodVerticalScaling: true });
  assert.equal(o.verbosity, 4);
  assert.equal(o.synchronous, 'NORMAL');
  assert.equal(o.kubeconfigPath, '/tmp/kc');
});

test('bad flags and gates are refused with clear errors', () => {
  assert.throws(() => parseServeFlags(['--bogus']), FlagError);
  assert.throws(() => parseServeFlags(['--secure-port', '70000']), FlagError);
  assert.throws(
    () => parseServeFlags(['--feature-gates=NoSuchGate=true']),
    /unrecognized feature gate: NoSuchGate/,
  );
  assert.throws(() => parseServeFlags(['--feature-gates=CronJobTimeZone=false']), FeatureGateError);
});

test('--anonymous-auth is a boolean flag, on by default (issue #5)', () => {
  assert.equal(parseServeFlags([]).anonymousAuth, true);
  assert.equal(parseServeFlags(['--anonymous-auth=false']).anonymousAuth, false);
  assert.equal(parseServeFlags(['--anonymous-auth', '--storage=memory']).anonymousAuth, true);
  assert.throws(() => parseServeFlags(['--anonymous-auth=maybe']), FlagError);
});
