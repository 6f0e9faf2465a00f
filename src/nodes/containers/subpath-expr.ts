/**
 * The kubelet's checks of a container's volume subpaths before it creates the container
 * (makeMounts): `subPathExpr` expanded with the container's environment, where a variable that
 * is missing or empty is an error; then no absolute path and no `..`. A failure leaves the
 * container waiting in CreateContainerConfigError with the kubelet's message.
 */
import type { JsonObject } from '../../util/json.js';
import { objsAt, strAt } from '../json.js';
import { UnknownReference } from './references.js';

/** expansion.Expand with the kubelet's mapping: unknown variables are collected in `missing`. */
function expandSubPath(
  expr: string,
  env: ReadonlyMap<string, string | undefined>,
  missing: Set<string>,
): string {
  return expr.replace(/\$\$|\$\(([^)]*)\)/g, (whole, name: string | undefined) => {
    if (name === undefined) return '$';
    if (env.has(name) && env.get(name) === undefined) throw new UnknownReference(name);
    const value = env.get(name);
    if (value === undefined || value === '') missing.add(name);
    return value ?? '';
  });
}

/** The error that keeps the container from being created, if the spec says there is one. */
export function subPathConfigError(
  container: JsonObject,
  envOf: () => ReadonlyMap<string, string | undefined>,
): string | undefined {
  for (const m of objsAt(container, 'volumeMounts')) {
    let subPath = strAt(m, 'subPath') ?? '';
    const expr = strAt(m, 'subPathExpr') ?? '';
    if (expr !== '') {
      const missing = new Set<string>();
      try {
        subPath = expandSubPath(expr, envOf(), missing);
      } catch (err) {
        // A variable from a Secret the node did not read: whether it fails is not known.
        if (err instanceof UnknownReference) return undefined;
        throw err;
      }
      if (missing.size > 0) return `missing value for ${[...missing].sort().join(', ')}`;
    }
    if (subPath === '') continue;
    if (subPath.startsWith('/')) return `error SubPath \`${subPath}\` must not be an absolute path`;
    if (subPath.split('/').includes('..'))
      return `unable to provision SubPath \`${subPath}\`: must not contain '..'`;
  }
  return undefined;
}

/**
 * The container as its mounts are made: each `subPathExpr` expanded with its environment into
 * `subPath` (the kubelet expands it once, when it creates the container). Unchanged when no
 * mount has one, or when an expansion is not known.
 */
export function withExpandedSubPaths(
  container: JsonObject,
  envOf: () => ReadonlyMap<string, string | undefined>,
): JsonObject {
  const mounts = objsAt(container, 'volumeMounts');
  if (!mounts.some((m) => (strAt(m, 'subPathExpr') ?? '') !== '')) return container;
  try {
    const env = envOf();
    const expanded = mounts.map((m) => {
      const expr = strAt(m, 'subPathExpr') ?? '';
      if (expr === '') return m;
      const rest = { ...m };
      delete rest['subPathExpr'];
      return { ...rest, subPath: expandSubPath(expr, env, new Set()) };
    });
    return { ...container, volumeMounts: expanded };
  } catch (err) {
    if (err instanceof UnknownReference) return container;
    throw err;
  }
}
