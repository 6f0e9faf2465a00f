/**
 * prom-client metric vectors whose label-bound children are made once per label set and kept:
 * `cell(...values)` looks a child up (values in `labelNames` order), callers keep the cell, and
 * the hot path is the child's `inc`/`set`/`observe` with no label object built per update.
 * Labels are printed sorted by name, as Go's client (kube-apiserver's) prints them.
 */
import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

export interface FamilyOptions<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
  readonly registry: Registry;
}

export interface CounterCell {
  inc(by?: number): void;
}

export interface GaugeCell {
  inc(): void;
  dec(): void;
  set(value: number): void;
}

export interface HistogramCell {
  observe(value: number): void;
  /** Adds many observations at once, summarized by the same family's `summarize`. */
  observeSummary(summary: HistogramSummary): void;
}

/** Observations counted per bucket ahead of time (`HistogramFamily.summarize`). */
export interface HistogramSummary {
  readonly counts: Float64Array;
  readonly sum: number;
  readonly count: number;
}

type Labels = Record<string, string>;

interface MetricValue {
  readonly labels: Record<string, string | number>;
  readonly sharedLabels?: Labels;
  readonly value: number;
  readonly metricName?: string;
}

/** What prom-client's registry reads from a metric (`get`, or `getForPromString` when present). */
interface MetricData {
  readonly name: string;
  readonly help: string;
  readonly type: string;
  readonly aggregator: string;
  readonly values: MetricValue[];
}

/** Children by label values, each made once through `make` from its labels in name order. */
class Cells<C> {
  readonly #cells = new Map<string, C>();
  readonly #labelNames: readonly string[];
  readonly #make: (labels: Labels) => C;

  constructor(labelNames: readonly string[], make: (labels: Labels) => C) {
    this.#labelNames = labelNames;
    this.#make = make;
  }

  get(values: readonly string[]): C {
    const key = values.join('\u0000');
    let cell = this.#cells.get(key);
    if (cell === undefined) {
      cell = this.#make(this.labels(values));
      this.#cells.set(key, cell);
    }
    return cell;
  }

  labels(values: readonly string[]): Labels {
    if (values.length !== this.#labelNames.length) {
      throw new Error(`expected ${this.#labelNames.length} label values, got ${values.length}`);
    }
    const labels: Labels = {};
    const byName = this.#labelNames.map((n, i) => [n, values[i]!] as const);
    for (const [n, v] of byName.sort(([a], [b]) => (a < b ? -1 : 1))) labels[n] = v;
    return labels;
  }

  /** Forgets a label set; returns its labels. */
  delete(values: readonly string[]): Labels {
    this.#cells.delete(values.join('\u0000'));
    return this.labels(values);
  }
}

const sorted = (names: readonly string[]): string[] => [...names].sort();

/** One label set's counter. */
class CounterCellImpl implements CounterCell {
  readonly labels: Labels;
  value = 0;
  constructor(labels: Labels) {
    this.labels = labels;
  }
  inc(by = 1): void {
    if (!Number.isFinite(by)) throw new TypeError(`Value is not a valid number: ${by}`);
    if (by < 0) throw new Error('It is not possible to decrease a counter');
    this.value += by;
  }
}

/**
 * A counter vector registered with prom-client as a metric of its own (prom-client's children
 * hash their labels on every `inc`, which showed in a busy watch fan-out); rendered as its Counter.
 */
export class CounterFamily<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'counter';
  readonly aggregator = 'sum';
  readonly #cells: Cells<CounterCellImpl>;
  readonly #all: CounterCellImpl[] = [];
  constructor(o: FamilyOptions<L>) {
    this.name = o.name;
    this.help = o.help;
    this.#cells = new Cells(o.labelNames, (labels) => {
      const cell = new CounterCellImpl(labels);
      this.#all.push(cell);
      return cell;
    });
    o.registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }
  cell(...values: string[]): CounterCell {
    return this.#cells.get(values);
  }
  get(): MetricData {
    return { ...this.#meta(), values: this.#all.map((c) => ({ labels: { ...c.labels }, value: c.value })) };
  }
  reset(): void {
    for (const cell of this.#all) cell.value = 0;
  }
  #meta(): Omit<MetricData, 'values'> {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator };
  }
}

export class GaugeFamily<L extends string> {
  readonly #cells: Cells<GaugeCell>;
  readonly #metric: Gauge;
  constructor(o: FamilyOptions<L>) {
    const m = new Gauge({
      name: o.name,
      help: o.help,
      labelNames: sorted(o.labelNames),
      registers: [o.registry],
    });
    this.#metric = m;
    this.#cells = new Cells(o.labelNames, (labels) => m.labels(labels));
  }
  cell(...values: string[]): GaugeCell {
    return this.#cells.get(values);
  }
  /** Drops a label set from the output (e.g. a resource no longer served). */
  remove(...values: string[]): void {
    this.#metric.remove(this.#cells.delete(values));
  }
}

/** The index of the first bound `value` is at most, or -1 (only the +Inf bucket). */
function bucketOf(bounds: readonly number[], value: number): number {
  for (let i = 0; i < bounds.length; i++) if (value <= bounds[i]!) return i;
  return -1;
}

/** One label set's histogram: counts per bucket (not cumulative), sum and count. */
class HistogramCellImpl implements HistogramCell {
  readonly labels: Labels;
  readonly #bounds: readonly number[];
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(labels: Labels, bounds: readonly number[]) {
    this.labels = labels;
    this.#bounds = bounds;
    this.counts = new Float64Array(bounds.length);
  }
  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    this.sum += value;
    this.count++;
    const i = bucketOf(this.#bounds, value);
    if (i >= 0) this.counts[i]!++;
  }
  observeSummary(summary: HistogramSummary): void {
    if (summary.counts.length !== this.counts.length) throw new Error('summary of another histogram');
    this.sum += summary.sum;
    this.count += summary.count;
    for (let i = 0; i < this.counts.length; i++) this.counts[i]! += summary.counts[i]!;
  }
}

/**
 * A histogram vector registered with prom-client as a metric of its own: an observation is a
 * bucket search and three additions on the cell (prom-client's children hash their labels and
 * validate them on every observation, which showed as a tenth of a busy watch fan-out). The
 * registry renders it exactly as prom-client's Histogram (`le` first, cumulative buckets, `+Inf`,
 * `_sum`, `_count`).
 */
export class HistogramFamily<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #bounds: readonly number[];
  readonly #cells: Cells<HistogramCellImpl>;
  readonly #all: HistogramCellImpl[] = [];

  constructor(o: FamilyOptions<L> & { readonly buckets: readonly number[] }) {
    this.name = o.name;
    this.help = o.help;
    this.#bounds = [...o.buckets].sort((a, b) => a - b);
    this.#cells = new Cells(o.labelNames, (labels) => {
      const cell = new HistogramCellImpl(labels, this.#bounds);
      this.#all.push(cell);
      return cell;
    });
    o.registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  cell(...values: string[]): HistogramCell {
    return this.#cells.get(values);
  }

  /** `values` counted into this family's buckets, for any of its cells' `observeSummary`. */
  summarize(values: readonly number[]): HistogramSummary {
    const counts = new Float64Array(this.#bounds.length);
    let sum = 0;
    for (const v of values) {
      if (!Number.isFinite(v)) throw new TypeError(`Value is not a valid number: ${v}`);
      sum += v;
      const i = bucketOf(this.#bounds, v);
      if (i >= 0) counts[i]!++;
    }
    return { counts, sum, count: values.length };
  }

  /** What prom-client's registry renders (labels of the cell as shared labels, as Histogram does). */
  getForPromString(): {
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: MetricValue[];
  } {
    const values: MetricValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const cell of this.#all) {
      let acc = 0;
      for (let i = 0; i < this.#bounds.length; i++) {
        acc += cell.counts[i]!;
        values.push({
          labels: { le: this.#bounds[i]! },
          sharedLabels: cell.labels,
          value: acc,
          metricName: bucket,
        });
      }
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: cell.labels, value: cell.count, metricName: bucket },
        { labels: {}, sharedLabels: cell.labels, value: cell.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: cell.labels, value: cell.count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** The JSON form (`registry.getMetricsAsJSON`): each value's labels with the cell's merged in. */
  get(): MetricData {
    const data = this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ sharedLabels, labels, ...rest }) => ({
        ...rest,
        labels: { ...labels, ...sharedLabels },
      })),
    };
  }

  reset(): void {
    for (const cell of this.#all) {
      cell.counts.fill(0);
      cell.sum = 0;
      cell.count = 0;
    }
  }
}
