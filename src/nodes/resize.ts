/**
 * In-place pod resize on a simulated node (AM-01), as the v1.27 kubelet does it
 * (pkg/kubelet/kubelet.go handlePodResourcesResize / canResizePod, kubelet_pods.go
 * determinePodResizeStatus and convertToAPIContainerStatuses): each container's admitted
 * requests (`allocatedResources`) and applied resources (`resources`), the feasibility check
 * against the node's allocatable, admission among the node's other pods, and restarts for
 * resources whose resizePolicy is `RestartContainer`. Pure functions over plain state.
 */
import type { JsonObject } from '../util/json.js';
import { objAt, objsAt, rfc3339, strAt } from './json.js';
import { containerID } from './pod-status.js';
import { podRequests, resourceList } from './resources.js';
import type { ResourceList } from './resources.js';

export type ResizeStatus = 'Proposed' | 'InProgress' | 'Deferred' | 'Infeasible';

/** What the simulated runtime knows of one container. */
export interface ContainerRuntime {
  /** Requests admitted by the node (status.containerStatuses[].allocatedResources). */
  allocated: JsonObject | undefined;
  /** Resources applied to the running container (status.containerStatuses[].resources). */
  applied: JsonObject | undefined;
  restarts: number;
  /** When the current instance started (ms). */
  startedAt: number;
  /** The previous instance's terminated state, after a restart. */
  lastTerminated: JsonObject | undefined;
}

function requestsOf(c: JsonObject): JsonObject | undefined {
  const r = objAt(objAt(c, 'resources'), 'requests');
  return r === undefined || Object.keys(r).length === 0 ? undefined : { ...r };
}

function appliedOf(c: JsonObject, requests: JsonObject | undefined): JsonObject | undefined {
  const limits = objAt(objAt(c, 'resources'), 'limits');
  const out: JsonObject = {};
  if (limits !== undefined && Object.keys(limits).length > 0) out['limits'] = { ...limits };
  if (requests !== undefined) out['requests'] = { ...requests };
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * The runtime of each container of a pod being admitted; a previous run's statuses (adopted pods)
 * keep their allocated and applied resources and restart counts.
 */
export function initialRuntimes(pod: JsonObject, startedAt: number): Map<string, ContainerRuntime> {
  const out = new Map<string, ContainerRuntime>();
  const statuses = objsAt(objAt(pod, 'status'), 'containerStatuses');
  for (const c of objsAt(objAt(pod, 'spec'), 'containers')) {
    const name = strAt(c, 'name') ?? '';
    const prev = statuses.find((s) => strAt(s, 'name') === name);
    const allocated = objAt(prev, 'allocatedResources') ?? requestsOf(c);
    out.set(name, {
      allocated,
      applied: objAt(prev, 'resources') ?? appliedOf(c, allocated),
      restarts: typeof prev?.['restartCount'] === 'number' ? prev['restartCount'] : 0,
      startedAt,
      lastTerminated: undefined,
    });
  }
  return out;
}

function sameAmounts(a: JsonObject | undefined, b: JsonObject | undefined): boolean {
  const x = resourceList(a);
  const y = resourceList(b);
  if (x.size !== y.size) return false;
  for (const [k, v] of x) if (y.get(k) !== v) return false;
  return true;
}

/** handlePodResourcesResize's trigger: a container's requests differ from what was allocated. */
export function resizeRequested(pod: JsonObject, runtimes: ReadonlyMap<string, ContainerRuntime>): boolean {
  return objsAt(objAt(pod, 'spec'), 'containers').some((c) => {
    const requests = requestsOf(c);
    if (requests === undefined) return false;
    const rt = runtimes.get(strAt(c, 'name') ?? '');
    return rt !== undefined && !sameAmounts(requests, rt.allocated);
  });
}

/** The pod's requests as admitted (allocated requests in place of the spec's). */
export function allocatedPodRequests(
  pod: JsonObject,
  runtimes: ReadonlyMap<string, ContainerRuntime>,
): ResourceList {
  const spec = objAt(pod, 'spec') ?? {};
  const containers = objsAt(spec, 'containers').map((c) => {
    const rt = runtimes.get(strAt(c, 'name') ?? '');
    return rt === undefined ? c : { ...c, resources: { requests: rt.allocated ?? {} } };
  });
  return podRequests({ ...spec, containers }).requests;
}

/**
 * canResizePod: `Infeasible` when the pod's new cpu or memory requests exceed the node's
 * allocatable, `Deferred` when they do not fit beside the node's other pods now, else
 * `InProgress` (admitted).
 */
export function admitResize(
  pod: JsonObject,
  allocatable: ResourceList,
  othersRequested: ResourceList,
): ResizeStatus {
  const wanted = podRequests(objAt(pod, 'spec')).requests;
  for (const r of ['cpu', 'memory']) {
    if ((wanted.get(r) ?? 0) > (allocatable.get(r) ?? 0)) return 'Infeasible';
  }
  for (const [r, v] of wanted) {
    if (v === 0) continue;
    const cap = allocatable.get(r);
    if (cap === undefined) continue;
    if (v + (othersRequested.get(r) ?? 0) > cap) return 'Deferred';
  }
  return 'InProgress';
}

/** Records the spec's requests as allocated (the admitted resize). */
export function allocate(pod: JsonObject, runtimes: Map<string, ContainerRuntime>): void {
  for (const c of objsAt(objAt(pod, 'spec'), 'containers')) {
    const rt = runtimes.get(strAt(c, 'name') ?? '');
    if (rt !== undefined) rt.allocated = requestsOf(c);
  }
}

/**
 * Applies the allocated resources to the containers: a container whose changed resources include
 * one with resizePolicy `RestartContainer` is restarted (restartCount+1).
 */
export function actuate(pod: JsonObject, runtimes: Map<string, ContainerRuntime>, now: number): void {
  const uid = strAt(objAt(pod, 'metadata'), 'uid') ?? '';
  for (const c of objsAt(objAt(pod, 'spec'), 'containers')) {
    const name = strAt(c, 'name') ?? '';
    const rt = runtimes.get(name);
    if (rt === undefined) continue;
    const next = appliedOf(c, rt.allocated);
    const changed = ['cpu', 'memory'].filter((r) =>
      ['requests', 'limits'].some(
        (k) => resourceList(objAt(rt.applied, k)).get(r) !== resourceList(objAt(next, k)).get(r),
      ),
    );
    const restart = objsAt(c, 'resizePolicy').some(
      (p) =>
        changed.includes(strAt(p, 'resourceName') ?? '') && strAt(p, 'restartPolicy') === 'RestartContainer',
    );
    if (restart) {
      const id = containerID(uid, name, rt.restarts);
      rt.lastTerminated = {
        terminated: {
          exitCode: 0,
          reason: 'Completed',
          startedAt: rfc3339(rt.startedAt),
          finishedAt: rfc3339(now),
          containerID: id,
        },
      };
      rt.restarts += 1;
      rt.startedAt = now;
    }
    rt.applied = next;
  }
}

/**
 * determinePodResizeStatus: the resize stays reported while a container's applied resources
 * differ from its spec; once they match it is cleared.
 */
export function resizeDone(pod: JsonObject, runtimes: ReadonlyMap<string, ContainerRuntime>): boolean {
  return objsAt(objAt(pod, 'spec'), 'containers').every((c) => {
    const rt = runtimes.get(strAt(c, 'name') ?? '');
    if (rt === undefined) return true;
    const want = appliedOf(c, requestsOf(c));
    return ['requests', 'limits'].every((k) => sameAmounts(objAt(want, k), objAt(rt.applied, k)));
  });
}

/**
 * The container statuses of `status` (running or terminated ones, as pod-status.ts writes them)
 * with the runtime's allocated and applied resources, restart counts, instance IDs and start times.
 */
export function withRuntimes(
  status: JsonObject,
  pod: JsonObject,
  runtimes: ReadonlyMap<string, ContainerRuntime>,
): JsonObject {
  const uid = strAt(objAt(pod, 'metadata'), 'uid') ?? '';
  const containerStatuses = objsAt(status, 'containerStatuses').map((cs) => {
    const name = strAt(cs, 'name') ?? '';
    const rt = runtimes.get(name);
    if (rt === undefined) return cs;
    // Restarts for resizes add to the restarts the pod's own life brought.
    const own = typeof cs['restartCount'] === 'number' ? cs['restartCount'] : 0;
    const out: JsonObject = { ...cs, restartCount: own + rt.restarts };
    if (rt.allocated !== undefined) out['allocatedResources'] = rt.allocated;
    const state = objAt(cs, 'state');
    const running = objAt(state, 'running');
    if (running !== undefined && rt.applied !== undefined) out['resources'] = rt.applied;
    if (rt.restarts > 0) {
      const id = containerID(uid, name, rt.restarts);
      out['containerID'] = id;
      if (running !== undefined) out['state'] = { running: { startedAt: rfc3339(rt.startedAt) } };
      const terminated = objAt(state, 'terminated');
      if (terminated !== undefined) {
        out['state'] = { terminated: { ...terminated, startedAt: rfc3339(rt.startedAt), containerID: id } };
      }
      if (rt.lastTerminated !== undefined) out['lastState'] = rt.lastTerminated;
    }
    return out;
  });
  return { ...status, containerStatuses };
}
