/**
 * The namespace of a pod or workload request, read as upstream's NamespaceGetter does (the cache,
 * then storage on a miss): the namespace, or the error upstream reports (`namespaces "x" not
 * found`, or the read's own error).
 */
import { apiErrors } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import type { PodSecurityContext } from './context.js';

export type NamespaceLookup =
  | { readonly namespace: KubeObject; readonly error?: undefined }
  | { readonly namespace?: undefined; readonly error: string };

export async function lookupNamespace(ctx: PodSecurityContext, name: string): Promise<NamespaceLookup> {
  try {
    const namespace = await ctx.getNamespace(name);
    if (namespace !== undefined) return { namespace };
    return { error: apiErrors.notFound({ group: '', resource: 'namespaces' }, name).message };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}
