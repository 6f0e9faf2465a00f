import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { endStatus, headerList, negotiate, protocolVersion, spdyStreamProtocols } from './remotecommand.js';

describe('remote command protocols', () => {
  test("negotiation: the client's first protocol the server serves", () => {
    assert.equal(
      negotiate(['v5.channel.k8s.io', 'v4.channel.k8s.io', 'channel.k8s.io'], spdyStreamProtocols),
      'v4.channel.k8s.io',
    );
    assert.equal(negotiate(['channel.k8s.io', 'v4.channel.k8s.io'], spdyStreamProtocols), 'channel.k8s.io');
    assert.equal(negotiate(['v5.channel.k8s.io'], spdyStreamProtocols), undefined);
    assert.deepEqual(headerList(['a, b', ' c ']), ['a', 'b', 'c']);
    assert.deepEqual(
      ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'].map(protocolVersion),
      [4, 3, 2, 1],
    );
  });

  test('v4 writes a metav1.Status as JSON in Go field order, success included', () => {
    assert.equal(endStatus({ exitCode: 0, message: '' }, 4), '{"metadata":{},"status":"Success"}');
    assert.equal(
      endStatus({ exitCode: 3, message: 'error executing command [sh -c exit 3], exit code 3' }, 4),
      '{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}',
    );
    assert.equal(
      endStatus({ error: 'error executing command in container: a <b>' }, 4),
      '{"metadata":{},"status":"Failure","message":"Internal error occurred: error executing command in container: a \\u003cb\\u003e","reason":"InternalError","details":{"causes":[{"message":"error executing command in container: a \\u003cb\\u003e"}]},"code":500}',
    );
  });

  test('v1–v3 write the message alone, and nothing on success', () => {
    assert.equal(endStatus({ exitCode: 0, message: '' }, 3), undefined);
    assert.equal(
      endStatus({ exitCode: 2, message: 'm' }, 2),
      'command terminated with non-zero exit code: m',
    );
    assert.equal(endStatus({ error: 'e' }, 1), 'Internal error occurred: e');
  });
});
