/**
 * Which resources get a watch cache: kube-apiserver v1.27's `--watch-cache` and
 * `--watch-cache-sizes` (k8s.io/apiserver's EtcdOptions, completed by kube-apiserver with
 * DefaultWatchCacheSizes). Every built-in resource has one except Events (core and
 * events.k8s.io), which upstream leaves uncached by default: they are written far more than they
 * are read, and a cache would hold a copy of each for its hour-long life. A size of 0 turns a
 * resource's cache off; any other size keeps it (the size itself is ignored, as upstream's
 * caches size themselves). Custom resources ignore the sizes; `--watch-cache=false` turns every
 * cache off, theirs included.
 */
import { groupResourceString } from '../../machinery/errors.js';
import { FlagError } from './flag-error.js';

/** kube-apiserver's DefaultWatchCacheSizes: the group-resources without a cache unless asked. */
const defaultSizes: ReadonlyMap<string, number> = new Map([
  ['events', 0],
  ['events.events.k8s.io', 0],
]);

/**
 * Parses `--watch-cache-sizes` values (`resource[.group]#size`) with upstream's
 * ParseWatchCacheSizes messages; the keys are GroupResource strings (`pods`, `deployments.apps`).
 */
export function parseWatchCacheSizes(values: readonly string[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const value of values) {
    const tokens = value.split('#');
    if (tokens.length !== 2) throw new FlagError(`invalid value of watch cache size: ${value}`);
    const size = parseGoAtoi(tokens[1]!);
    if (size === undefined) throw new FlagError(`invalid size of watch cache size: ${value}`);
    if (size < 0) throw new FlagError(`watch cache size cannot be negative: ${value}`);
    sizes.set(groupResourceKey(tokens[0]!), size);
  }
  return sizes;
}

/** Go's strconv.Atoi on a decimal: an optional sign and digits, within int64. */
function parseGoAtoi(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return Math.abs(n) < 2 ** 63 ? n : undefined;
}

/** schema.ParseGroupResource then String(): the resource and, after the first dot, the group. */
function groupResourceKey(s: string): string {
  const dot = s.indexOf('.');
  return dot < 0 ? s : groupResourceString({ resource: s.slice(0, dot), group: s.slice(dot + 1) });
}

export interface WatchCacheChoice {
  /** Whether the resource gets a watch cache. */
  readonly cached: (
    resource: { readonly group: string; readonly resource: string },
    custom: boolean,
  ) => boolean;
  /** The group-resources given a size other than 0 (upstream warns it drops them). */
  readonly droppedSizes: readonly string[];
}

/**
 * The caches a server builds from `--watch-cache` (default true) and `--watch-cache-sizes`
 * (already parsed by the flags; these are added over the defaults).
 */
export function watchCacheChoice(o: {
  readonly enabled?: boolean;
  readonly sizes?: readonly string[];
}): WatchCacheChoice {
  const sizes = new Map(defaultSizes);
  const given = parseWatchCacheSizes(o.sizes ?? []);
  for (const [resource, size] of given) sizes.set(resource, size);
  const enabled = o.enabled ?? true;
  return {
    cached: (r, custom) => {
      if (!enabled) return false;
      if (custom) return true;
      const size = sizes.get(groupResourceString(r));
      return size === undefined || size > 0;
    },
    droppedSizes: enabled ? [...sizes].filter(([, size]) => size > 0).map(([resource]) => resource) : [],
  };
}
