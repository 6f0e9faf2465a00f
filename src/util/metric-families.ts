/**
 * prom-client metric vectors whose label-bound children are made once per label set and kept:
 * `cell(...values)` looks a child up (values in `labelNames` order), callers keep the cell, and
 * the hot path is the child's `inc`/`set`/`observe` with no label object built per update.
 * Labels are printed sorted by name, as Go's client (kube-apiserver's) prints them.
 */
import { Counter, Gauge, Histogram } from 'prom-client';
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
}

type Labels = Record<string, string>;

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

export class CounterFamily<L extends string> {
  readonly #cells: Cells<CounterCell>;
  constructor(o: FamilyOptions<L>) {
    const m = new Counter({
      name: o.name,
      help: o.help,
      labelNames: sorted(o.labelNames),
      registers: [o.registry],
    });
    this.#cells = new Cells(o.labelNames, (labels) => m.labels(labels));
  }
  cell(...values: string[]): CounterCell {
    return this.#cells.get(values);
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

export class HistogramFamily<L extends string> {
  readonly #cells: Cells<HistogramCell>;
  constructor(o: FamilyOptions<L> & { readonly buckets: readonly number[] }) {
    const m = new Histogram({
      name: o.name,
      help: o.help,
      labelNames: sorted(o.labelNames),
      buckets: [...o.buckets],
      registers: [o.registry],
    });
    this.#cells = new Cells(o.labelNames, (labels) => m.labels(labels));
  }
  cell(...values: string[]): HistogramCell {
    return this.#cells.get(values);
  }
}
