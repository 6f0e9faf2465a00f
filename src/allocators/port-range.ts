/**
 * The NodePort allocator (upstream pkg/registry/core/service/portallocator/allocator.go, v1.27):
 * ports of `--service-node-port-range` (default 30000-32767), chosen at random; with the
 * ServiceNodePortStaticSubrange gate (alpha) dynamic allocation prefers the range above the
 * static band (KEP-3668).
 */
import { AllocationMap } from './allocation-map.js';
import type { RandomInt } from './allocation-map.js';
import { nodePortStaticBand } from './bands.js';
import { AlreadyAllocatedError, NotInRangeError, RangeFullError } from './errors.js';

export const defaultNodePortRange = '30000-32767';

export interface PortRange {
  readonly base: number;
  readonly size: number;
}

/**
 * Parses a port range as upstream's net.ParsePortRange: `a-b`, `a+n` (a to a+n) or a single port;
 * undefined when malformed or outside 0-65535.
 */
export function parsePortRange(text: string): PortRange | undefined {
  const s = text.trim();
  if (s === '') return undefined;
  const m = /^(\d+)(?:([-+])(\d+))?$/.exec(s);
  if (m === null) return undefined;
  const low = Number(m[1]);
  let high = low;
  if (m[2] === '-') high = Number(m[3]);
  else if (m[2] === '+') high = low + Number(m[3]);
  if (low > 65535 || high > 65535 || high < low) return undefined;
  return { base: low, size: high - low + 1 };
}

export function formatPortRange(r: PortRange): string {
  return r.size === 0 ? '' : `${r.base}-${r.base + r.size - 1}`;
}

export interface PortRangeOptions {
  /** Default 30000-32767. */
  readonly range?: string;
  /** ServiceNodePortStaticSubrange: dynamic allocation avoids the static band first. */
  readonly staticSubrange?: boolean;
  readonly random?: RandomInt;
}

export class PortRangeAllocator {
  readonly #range: PortRange;
  readonly #text: string;
  #map: AllocationMap;
  readonly #options: PortRangeOptions;

  constructor(o: PortRangeOptions = {}) {
    this.#options = o;
    const range = parsePortRange(o.range ?? defaultNodePortRange);
    if (range === undefined) throw new RangeError(`invalid port range ${o.range ?? ''}`);
    this.#range = range;
    this.#text = formatPortRange(range);
    this.#map = new AllocationMap({
      max: BigInt(range.size),
      band: o.staticSubrange === true ? nodePortStaticBand(range.size) : 0,
      ...(o.random !== undefined ? { random: o.random } : {}),
    });
  }

  /** A copy-on-write view of this allocator's state (AllocationMap.fork): for one write attempt. */
  fork(): PortRangeAllocator {
    const f = new PortRangeAllocator(this.#options);
    f.#map = this.#map.fork();
    return f;
  }

  get range(): string {
    return this.#text;
  }

  get staticBand(): number {
    return Number(this.#map.band);
  }

  get used(): number {
    return this.#map.count;
  }

  get free(): number {
    return this.#range.size - this.#map.count;
  }

  contains(port: number): boolean {
    return port >= this.#range.base && port < this.#range.base + this.#range.size;
  }

  has(port: number): boolean {
    return this.contains(port) && this.#map.has(BigInt(port - this.#range.base));
  }

  allocate(port: number): void {
    if (!this.contains(port)) throw new NotInRangeError('port', this.#text);
    if (!this.#map.allocate(BigInt(port - this.#range.base))) throw new AlreadyAllocatedError('port');
  }

  allocateNext(): number {
    const off = this.#map.allocateNext();
    if (off === undefined) throw new RangeFullError();
    return this.#range.base + Number(off);
  }

  release(port: number): void {
    if (this.contains(port)) this.#map.release(BigInt(port - this.#range.base));
  }

  allocated(): number[] {
    return this.#map.offsets().map((o) => this.#range.base + Number(o));
  }
}
