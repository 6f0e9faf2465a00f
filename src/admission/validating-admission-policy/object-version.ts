import type { KubeObject } from '../../machinery/object.js';

/** What identifies one version of a policy or binding for the compiled caches: uid and resourceVersion. */
export function objectVersion(o: KubeObject): string {
  return `${o.metadata.uid ?? ''}/${o.metadata.resourceVersion ?? ''}`;
}
