/** `--authorization-mode` values and upstream's validation messages. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseAuthorizationModes } from './authorization-modes.js';
import { FlagError, parseServeFlags } from './flags.js';

test('#12 --authorization-mode: lists, defaults, upstream messages, refusals of what is not built', () => {
  assert.deepEqual(parseAuthorizationModes('RBAC'), ['RBAC']);
  assert.deepEqual(parseAuthorizationModes('AlwaysDeny,RBAC,AlwaysAllow'), [
    'AlwaysDeny',
    'RBAC',
    'AlwaysAllow',
  ]);
  assert.equal(parseServeFlags([]).authorizationModes, undefined);
  assert.deepEqual(parseServeFlags(['--authorization-mode=AlwaysAllow']).authorizationModes, ['AlwaysAllow']);
  assert.throws(() => parseServeFlags(['--authorization-mode', 'Foo']), {
    name: 'FlagError',
    message: 'authorization-mode "Foo" is not a valid mode',
  });
  assert.throws(() => parseAuthorizationModes(''), {
    message: 'at least one authorization-mode must be passed',
  });
  assert.throws(() => parseAuthorizationModes('RBAC,RBAC'), {
    message: 'authorization-mode ["RBAC" "RBAC"] has mode specified more than once',
  });
  assert.throws(() => parseAuthorizationModes('ABAC,Foo'), {
    message:
      '[authorization-mode ABAC\'s authorization policy file not passed, authorization-mode "Foo" is not a valid mode]',
  });
  assert.throws(() => parseAuthorizationModes('Webhook'), {
    message: "authorization-mode Webhook's authorization config file not passed",
  });
  assert.deepEqual(parseServeFlags(['--authorization-mode=Node,RBAC']).authorizationModes, ['Node', 'RBAC']);
  // ABAC and Webhook need files nanokube has no flags for: refused, never silently allowed.
  assert.throws(() => parseServeFlags(['--authorization-mode', 'Webhook,RBAC']), FlagError);
});
