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

test('a histogram summary adds as its observations one by one would; JSON and reset as prom-client', async () => {
  const registry = new Registry();
  const c = new CounterFamily({ name: 'n_total', help: 'N.', labelNames: ['kind'], registry });
  const h = new HistogramFamily({
    name: 's_bytes',
    help: 'S.',
    labelNames: ['kind'],
    buckets: [10, 100],
    registry,
  });
  const one = h.cell('a');
  const many = h.cell('b');
  const values = [5, 10, 50, 500, 7];
  for (const v of values) one.observe(v);
  const summary = h.summarize(values);
  many.observeSummary(summary);
  many.observeSummary(summary);
  c.cell('a').inc(3);
  const text = await registry.metrics();
  assert.match(text, /s_bytes_bucket\{le="10",kind="a"\} 3\n/);
  assert.match(text, /s_bytes_bucket\{le="10",kind="b"\} 6\n/);
  assert.match(text, /s_bytes_bucket\{le="\+Inf",kind="b"\} 10\n/);
  assert.match(text, /s_bytes_sum\{kind="b"\} 1144\n/);
  const json = await registry.getMetricsAsJSON();
  const hist = json.find((m) => m.name === 's_bytes');
  assert.deepEqual(
    hist?.values
      .filter((v) => v.labels['kind'] === 'a')
      .map((v) => [(v as { metricName?: string }).metricName, v.labels['le'], v.value]),
    [
      ['s_bytes_bucket', 10, 3],
      ['s_bytes_bucket', 100, 4],
      ['s_bytes_bucket', '+Inf', 5],
      ['s_bytes_sum', undefined, 572],
      ['s_bytes_count', undefined, 5],
    ],
  );
  assert.deepEqual(json.find((m) => m.name === 'n_total')?.values, [{ labels: { kind: 'a' }, value: 3 }]);
  assert.throws(() => one.observe(Number.NaN), /not a valid number/);
  assert.throws(() => c.cell('a').inc(-1), /not possible to decrease/);
  registry.resetMetrics();
  assert.match(await registry.metrics(), /s_bytes_count\{kind="b"\} 0\n/);
  assert.match(await registry.metrics(), /n_total\{kind="a"\} 0\n/);
});
