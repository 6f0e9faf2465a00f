/** `--node-ip` parsing as kubelet v1.27's (dual-stack, NW-08). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodesCommand } from './components.js';
import { ipv6PodCIDRFor, nodeIPsOf, parseNodeIPs, podCIDRsFor } from './node-ip.js';
import { FlagError, parseServeFlags } from './serve/flags.js';

test('NW-08: --node-ip takes one IP or a dual-stack pair, either family first', () => {
  assert.deepEqual(parseNodeIPs('10.1.0.5'), ['10.1.0.5']);
  assert.deepEqual(parseNodeIPs('fd00::5'), ['fd00::5']);
  assert.deepEqual(parseNodeIPs('10.1.0.5,fd00::5'), ['10.1.0.5', 'fd00::5']);
  assert.deepEqual(parseNodeIPs('fd00::5,10.1.0.5'), ['fd00::5', '10.1.0.5']);
  // Sloppy as the kubelet's: spaces trimmed, leading zeros, Go's canonical printing.
  assert.deepEqual(parseNodeIPs(' 010.001.0.5 , FD00:0:0::0005'), ['10.1.0.5', 'fd00::5']);
  // An IPv4-mapped IPv6 address is IPv4 (Go's IsIPv6 is false for it).
  assert.deepEqual(parseNodeIPs('::ffff:10.1.0.5,fd00::5'), ['10.1.0.5', 'fd00::5']);
  assert.deepEqual(parseNodeIPs(''), []);
});

test("NW-08: --node-ip errors carry the kubelet's texts", () => {
  const cases: [string, string][] = [
    [
      '10.1.0.5,10.1.0.6',
      'bad --node-ip "10.1.0.5,10.1.0.6": must contain either a single IP or a dual-stack pair of IPs',
    ],
    [
      'fd00::5,fd00::6',
      'bad --node-ip "fd00::5,fd00::6": must contain either a single IP or a dual-stack pair of IPs',
    ],
    [
      '10.1.0.5,fd00::5,10.1.0.6',
      'bad --node-ip "10.1.0.5,fd00::5,10.1.0.6": must contain either a single IP or a dual-stack pair of IPs',
    ],
    [
      '0.0.0.0,fd00::5',
      `bad --node-ip "0.0.0.0,fd00::5": dual-stack node IP cannot include '0.0.0.0' or '::'`,
    ],
    ['10.1.0.5,::', `bad --node-ip "10.1.0.5,::": dual-stack node IP cannot include '0.0.0.0' or '::'`],
    ['10.1.0.256', 'bad --node-ip "10.1.0.256": could not parse "10.1.0.256"'],
    ['node-a', 'bad --node-ip "node-a": could not parse "node-a"'],
    ['10.1.0.5,', 'bad --node-ip "10.1.0.5,": could not parse ""'],
    ['10.1.0.0/24', 'bad --node-ip "10.1.0.0/24": could not parse "10.1.0.0/24"'],
  ];
  for (const [value, message] of cases) {
    assert.throws(
      () => parseNodeIPs(value),
      (err: unknown) => {
        assert.ok(err instanceof FlagError);
        assert.equal(err.message, message);
        return true;
      },
    );
  }
  for (const value of ['0.0.0.0', '::', '::ffff:0.0.0.0']) {
    assert.throws(
      () => parseNodeIPs(value),
      /cannot autodetect its address: give it one, not '0.0.0.0' or '::'/,
    );
  }
});

test('NW-08: the last node must still have an address', () => {
  assert.deepEqual(nodeIPsOf('10.1.0.5,fd00::5', 3), ['10.1.0.5', 'fd00::5']);
  assert.equal(nodeIPsOf(undefined, 3), undefined);
  assert.equal(nodeIPsOf('', 3), undefined);
  assert.deepEqual(nodeIPsOf('255.255.255.254', 2), ['255.255.255.254']);
  assert.throws(
    () => nodeIPsOf('255.255.255.254,fd00::5', 3),
    /bad --node-ip "255.255.255.254,fd00::5": 3 nodes number their addresses up from 255.255.255.254, past the last IPv4 address/,
  );
});

test('NW-08: pod CIDRs follow the node IP families, the primary first', () => {
  assert.deepEqual(podCIDRsFor(undefined, '10.244.0.0/16', ipv6PodCIDRFor(2)), ['10.244.0.0/16']);
  assert.deepEqual(podCIDRsFor(['10.1.0.5'], '10.244.0.0/16', 'fd00:10:244::/56'), ['10.244.0.0/16']);
  assert.deepEqual(podCIDRsFor(['10.1.0.5', 'fd00::5'], '10.244.0.0/16', 'fd00:10:244::/56'), [
    '10.244.0.0/16',
    'fd00:10:244::/56',
  ]);
  assert.deepEqual(podCIDRsFor(['fd00::5', '10.1.0.5'], '10.244.0.0/16', 'fd00:10:244::/56'), [
    'fd00:10:244::/56',
    '10.244.0.0/16',
  ]);
  assert.deepEqual(podCIDRsFor(['fd00::5'], '10.244.0.0/16', 'fd00:10:244::/56'), ['fd00:10:244::/56']);
  assert.equal(ipv6PodCIDRFor(256), 'fd00:10:244::/56');
  assert.equal(ipv6PodCIDRFor(257), 'fd00:10:244::/48');
});

test('NW-08: nanokube serve --node-ip', () => {
  assert.deepEqual(parseServeFlags(['--node-ip', '10.1.0.5,fd00::5']).nodeIPs, ['10.1.0.5', 'fd00::5']);
  assert.deepEqual(parseServeFlags(['--node-ip=fd00::5']).nodeIPs, ['fd00::5']);
  assert.equal(parseServeFlags([]).nodeIPs, undefined);
  assert.equal(parseServeFlags(['--node-ip=']).nodeIPs, undefined);
  assert.throws(() => parseServeFlags(['--node-ip', '10.1.0.5,10.1.0.6']), FlagError);
  assert.throws(() => parseServeFlags(['--node-ip']), /flag needs an argument: --node-ip/);
  // The count of nodes comes after the flag: checked once all flags are read.
  assert.throws(
    () => parseServeFlags(['--node-ip', '255.255.255.255', '--nodes', '2']),
    /2 nodes number their addresses up from 255.255.255.255/,
  );
});

test('NW-08: nanokube nodes --node-ip is checked before the kubeconfig is read', () => {
  const missing = '/nonexistent/nanokube-node-ip-test/kubeconfig';
  assert.throws(
    () => nodesCommand(['--kubeconfig', missing, '--node-ip', 'fd00::5,fd00::6']),
    /^FlagError: bad --node-ip "fd00::5,fd00::6": must contain either a single IP or a dual-stack pair of IPs$/,
  );
  assert.throws(
    () => nodesCommand(['--kubeconfig', missing, '--nodes', '3', '--node-ip=fd00::5,255.255.255.255']),
    /3 nodes number their addresses up from 255.255.255.255, past the last IPv4 address/,
  );
});
