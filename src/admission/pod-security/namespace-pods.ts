/**
 * upstream Admission.EvaluatePodsInNamespace: when a namespace's enforce level tightens, its
 * existing pods are checked against it and the violations returned as warnings: a header, then one
 * warning per distinct set of reasons, naming the lexically first pod with it and how many others
 * share it, sorted. Pods of exempt runtime classes are skipped, and one pod per controller is
 * checked before the other replicas. At most `namespaceMaxPodsToCheck` pods are checked, within
 * `namespacePodCheckTimeoutMs` (upstream: 3000 pods, 1 s, or half the request's remaining time;
 * here the clock is only read between pods, and the request's deadline is not consulted).
 */
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';
import { aggregateCheckResults, forbiddenReason } from './aggregate.js';
import type { PodSecurityContext } from './context.js';
import { levelVersionString, type LevelVersion } from './level-version.js';
import { objectField, podMetadata } from './pod-fields.js';

export async function evaluatePodsInNamespace(
  ctx: PodSecurityContext,
  namespace: string,
  enforce: LevelVersion,
): Promise<string[]> {
  const deadline = ctx.now() + ctx.namespacePodCheckTimeoutMs;
  let pods: readonly KubeObject[];
  try {
    pods = await ctx.listPods(namespace);
  } catch {
    return ['failed to list pods while checking new PodSecurity enforce level'];
  }

  const prioritized = prioritizePods(ctx, pods);
  const total = prioritized.length;
  const toCheck = prioritized.slice(0, ctx.namespaceMaxPodsToCheck);
  let checked = toCheck.length;
  /** Each distinct reason list, with the lexically first pod name and the pod count. */
  const byWarning = new Map<string, { podName: string; count: number }>();
  for (const [i, pod] of toCheck.entries()) {
    const spec = objectField(pod, 'spec') ?? {};
    const result = aggregateCheckResults(ctx.evaluator.evaluatePod(enforce, podMetadata(pod.metadata), spec));
    if (!result.allowed) {
      const warning = forbiddenReason(result);
      const name = pod.metadata.name ?? '';
      const seen = byWarning.get(warning);
      if (seen === undefined) byWarning.set(warning, { podName: name, count: 1 });
      else
        byWarning.set(warning, { podName: name < seen.podName ? name : seen.podName, count: seen.count + 1 });
    }
    if (ctx.now() >= deadline) {
      checked = i + 1;
      break;
    }
  }

  const warnings: string[] = [];
  if (checked < total) {
    warnings.push(
      `new PodSecurity enforce level only checked against the first ${checked} of ${total} existing pods`,
    );
  }
  if (byWarning.size > 0) {
    warnings.push(
      `existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${levelVersionString(enforce)}"`,
    );
  }
  const podWarnings = [...byWarning].map(([warning, { podName, count }]) => {
    if (count === 1) return `${podName}: ${warning}`;
    if (count === 2) return `${podName} (and 1 other pod): ${warning}`;
    return `${podName} (and ${count - 1} other pods): ${warning}`;
  });
  podWarnings.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  return [...warnings, ...podWarnings];
}

/** Pods not of an exempt runtime class: the first of each controller (and uncontrolled ones), then the other replicas. */
function prioritizePods(ctx: PodSecurityContext, pods: readonly KubeObject[]): KubeObject[] {
  const first: KubeObject[] = [];
  const duplicates: KubeObject[] = [];
  const controllers = new Set<string>();
  for (const pod of pods) {
    if (ctx.exemptions.runtimeClass(objectField(pod, 'spec')?.['runtimeClassName'])) continue;
    const uid = controllerUID(pod);
    if (uid === undefined) first.push(pod);
    else if (controllers.has(uid)) duplicates.push(pod);
    else {
      controllers.add(uid);
      first.push(pod);
    }
  }
  return [...first, ...duplicates];
}

/** The uid of the owner reference with `controller: true` (upstream metav1.GetControllerOf). */
function controllerUID(pod: KubeObject): string | undefined {
  for (const ref of pod.metadata.ownerReferences ?? []) {
    if (isJsonObject(ref) && ref['controller'] === true) return ref.uid;
  }
  return undefined;
}
