import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clusterIPStaticBand, nodePortStaticBand } from './bands.js';

describe('KEP-3070 static bands (NW-03)', () => {
  it('ClusterIP: min(max(16, size/16), 256), 0 up to 16 addresses', () => {
    assert.equal(clusterIPStaticBand(16n), 0); // /28
    assert.equal(clusterIPStaticBand(8n), 0);
    assert.equal(clusterIPStaticBand(32n), 16); // /27: size/16 = 2 → 16
    assert.equal(clusterIPStaticBand(256n), 16); // /24
    assert.equal(clusterIPStaticBand(512n), 32); // /23
    assert.equal(clusterIPStaticBand(4096n), 256); // /20
    assert.equal(clusterIPStaticBand(1n << 20n), 256); // /12
    assert.equal(clusterIPStaticBand(1n << 64n), 256); // IPv6 /64
  });
  it('NodePort: min(max(16, size/32), 128)', () => {
    assert.equal(nodePortStaticBand(16), 0);
    assert.equal(nodePortStaticBand(17), 16);
    assert.equal(nodePortStaticBand(1000), 31);
    assert.equal(nodePortStaticBand(2768), 86); // 30000-32767
    assert.equal(nodePortStaticBand(10000), 128);
  });
});
