/**
 * A module loaded on first use with `import()`, handed out synchronously once it is loaded. For
 * code whose evaluation costs start-up time and memory that most servers never need (RE2, CEL):
 * the code paths that use it await `load()` (or `pending()`) first, then call `get()`.
 */
export interface LazyModule<T> {
  /** Loads the module once; later calls return the same promise. */
  readonly load: () => Promise<void>;
  /** Undefined when loaded (nothing to wait for), else the promise of loading. */
  readonly pending: () => Promise<void> | undefined;
  /** Whether `get()` may be called. */
  readonly loaded: () => boolean;
  /** The module; throws when it is not loaded yet (a programming error). */
  readonly get: () => T;
}

export function lazyModule<T>(what: string, importer: () => Promise<T>): LazyModule<T> {
  let value: { readonly module: T } | undefined;
  let loading: Promise<void> | undefined;
  const load = (): Promise<void> => {
    loading ??= importer().then((module) => {
      value = { module };
    });
    return loading;
  };
  return {
    load,
    pending: () => (value === undefined ? load() : undefined),
    loaded: () => value !== undefined,
    get: () => {
      if (value === undefined) throw new Error(`${what} is not loaded: await its load() before using it`);
      return value.module;
    },
  };
}
