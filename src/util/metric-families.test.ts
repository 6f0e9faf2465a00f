import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { CounterFamily, GaugeFamily, HistogramFamily } from './metric-families.js';

test('families render their cells in the text format, labels sorted by name', async () => {
  const registry = new Registry();
  const c = new CounterFamily({ name: 'x_total', help: 'X.', labelNames: ['verb', 'code'], registry });
  const g = new GaugeFamily({ name: 'y', help: 'Y.', labelNames: ['kind'], registry });
  const h = new HistogramFamily({
    name: 'z_seconds',
    help: 'Z.',
    labelNames: ['verb'],
    buckets: [0.1, 1],
    registry,
  });
  const post = c.cell('POST', '201');
  post.inc();
  post.inc();
  assert.equal(c.cell('POST', '201'), post, 'one cell per label set');
  g.cell('a"b\\c').set(3);
  g.cell('gone').set(1);
  g.remove('gone');
  const z = h.cell('GET');
  for (const v of [0.05, 0.1, 0.5, 2]) z.observe(v);
  assert.equal(
    await registry.metrics(),
    [
      '# HELP x_total X.',
      '# TYPE x_total counter',
      'x_total{code="201",verb="POST"} 2',
      '',
      '# HELP y Y.',
      '# TYPE y gauge',
      'y{kind="a\\"b\\\\c"} 3',
      '',
      '# HELP z_seconds Z.',
      '# TYPE z_seconds histogram',
      'z_seconds_bucket{le="0.1",verb="GET"} 2',
      'z_seconds_bucket{le="1",verb="GET"} 3',
      'z_seconds_bucket{le="+Inf",verb="GET"} 4',
      'z_seconds_sum{verb="GET"} 2.65',
      'z_seconds_count{verb="GET"} 4',
      '',
    ].join('\n'),
  );
  assert.throws(() => c.cell('POST'), /expected 2 label values/);
});
