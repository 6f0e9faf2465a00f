import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderMetrics } from '../../util/metrics.js';
import { CidrSet, errNoCidrsRemaining, errSubNetTooBig } from './cidr-set.js';
import { cidrSetsFor } from './range-allocator.js';

describe('CidrSet (cidrset/cidr_set.go)', () => {
  it('hands out node subnets in order and reports when none is left', () => {
    const s = new CidrSet('10.10.0.0/22', 24);
    assert.equal(s.max, 4);
    assert.deepEqual(
      [s.allocateNext(), s.allocateNext(), s.allocateNext(), s.allocateNext()],
      ['10.10.0.0/24', '10.10.1.0/24', '10.10.2.0/24', '10.10.3.0/24'],
    );
    assert.throws(() => s.allocateNext(), { message: errNoCidrsRemaining });
    s.release('10.10.1.0/24');
    assert.equal(s.allocateNext(), '10.10.1.0/24');
  });

  it('occupies every subnet a CIDR overlaps and skips them when allocating', () => {
    const s = new CidrSet('10.20.0.0/16', 24);
    s.occupy('10.20.0.0/23');
    s.occupy('10.20.2.128/25');
    assert.equal(s.allocated, 3);
    assert.equal(s.allocateNext(), '10.20.3.0/24');
    assert.throws(() => s.occupy('10.30.0.0/24'), /is out the range of cluster cidr 10.20.0.0\/16/);
    s.occupy('10.0.0.0/8'); // A range holding the whole cluster CIDR takes all of it.
    assert.equal(s.allocated, s.max);
  });

  it('works for IPv6 and refuses more than 2^16 subnets', () => {
    const s = new CidrSet('fd00:10::/56', 64);
    assert.equal(s.allocateNext(), 'fd00:10::/64');
    assert.equal(s.allocateNext(), 'fd00:10:0:1::/64');
    assert.throws(() => new CidrSet('10.0.0.0/8', 25), { message: errSubNetTooBig });
  });

  it('NW-11: exposes the cidrset metrics by cluster CIDR', async () => {
    const s = new CidrSet('10.99.0.0/23', 24);
    s.allocateNext();
    const text = await renderMetrics();
    assert.match(text, /node_ipam_controller_cidrset_cidrs_max_total\{clusterCIDR="10\.99\.0\.0\/23"\} 2/);
    assert.match(
      text,
      /node_ipam_controller_cidrset_cidrs_allocations_total\{clusterCIDR="10\.99\.0\.0\/23"\} 1/,
    );
    assert.match(text, /node_ipam_controller_cidrset_usage_cidrs\{clusterCIDR="10\.99\.0\.0\/23"\} 0\.5/);
  });
});

describe('cidrSetsFor (range allocator options)', () => {
  it('takes one CIDR per family with per-family mask sizes', () => {
    const sets = cidrSetsFor({ clusterCIDRs: ['10.244.0.0/16', 'fd00:244::/56'] });
    assert.deepEqual(
      sets.map((s) => [s.clusterCIDR, s.max]),
      [
        ['10.244.0.0/16', 256],
        ['fd00:244::/56', 256],
      ],
    );
    assert.throws(
      () => cidrSetsFor({ clusterCIDRs: ['10.0.0.0/16', '10.1.0.0/16'] }),
      /one IPv4 and one IPv6/,
    );
    assert.throws(() => cidrSetsFor({ clusterCIDRs: [] }), /--cluster-cidr is required/);
  });
});
