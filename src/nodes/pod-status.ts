/**
 * The pod statuses a kubelet (v1.27) writes through pods/status, as pure functions: Pending with
 * containers ContainerCreating (or PodInitializing behind init containers), Running with pod IPs,
 * conditions and container states, and a terminal phase once the containers have exited. The QoS
 * class is never written (the API server keeps it).
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../util/json.js';
import { numAt, objAt, objsAt, rfc3339, strAt } from './json.js';

export interface PodRuntime {
  readonly hostIP: string;
  /** Empty while the sandbox is being created. */
  readonly podIPs: readonly string[];
  /** When the kubelet first saw the pod (status.startTime). */
  readonly startTime: number;
}

function hex(seed: string, len = 64): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, len);
}

/** The image reference as containerd reports it (`nginx` → `docker.io/library/nginx:latest`). */
export function normalizeImage(image: string): string {
  let ref = image;
  const slash = ref.indexOf('/');
  const first = slash < 0 ? '' : ref.slice(0, slash);
  const hasDomain = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasDomain) ref = `docker.io/${slash < 0 ? 'library/' : ''}${ref}`;
  const lastPart = ref.slice(ref.lastIndexOf('/') + 1);
  if (!lastPart.includes(':') && !ref.includes('@')) ref += ':latest';
  return ref;
}

export function imageID(image: string): string {
  const name = normalizeImage(image);
  const repo = name.includes('@') ? name.slice(0, name.indexOf('@')) : name.replace(/:[^:/]*$/, '');
  return `${repo}@sha256:${hex(`image/${name}`)}`;
}

export function containerID(podUid: string, container: string, restarts = 0): string {
  return `containerd://${hex(`${podUid}/${container}/${restarts}`)}`;
}

/** Job-like pods (restartPolicy Never or OnFailure) run to completion. */
export function runsToCompletion(pod: JsonObject): boolean {
  const policy = strAt(objAt(pod, 'spec'), 'restartPolicy') ?? 'Always';
  return policy === 'Never' || policy === 'OnFailure';
}

/** How long after start the containers become ready: the longest readinessProbe.initialDelaySeconds. */
export function readinessDelayMs(pod: JsonObject): number {
  let max = 0;
  for (const c of objsAt(objAt(pod, 'spec'), 'containers')) {
    const probe = objAt(c, 'readinessProbe');
    if (probe !== undefined) max = Math.max(max, (numAt(probe, 'initialDelaySeconds') ?? 0) * 1000);
  }
  return max;
}

function names(list: readonly JsonObject[]): string[] {
  return list.map((c) => strAt(c, 'name') ?? '');
}

/** A condition that keeps its lastTransitionTime while its status stays the same. */
export function condition(
  old: readonly JsonObject[],
  type: string,
  status: string,
  now: number,
  reason?: string,
  message?: string,
): JsonObject {
  const prev = old.find((c) => strAt(c, 'type') === type);
  const keep = prev !== undefined && strAt(prev, 'status') === status;
  const out: JsonObject = {
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime: keep ? (prev['lastTransitionTime'] ?? rfc3339(now)) : rfc3339(now),
  };
  if (reason !== undefined) out['reason'] = reason;
  if (message !== undefined) out['message'] = message;
  return out;
}

/**
 * The PodScheduled condition as the pod has it (the scheduler's), copied in the field order of
 * Go's PodCondition: the server may give its keys in another order, and a status built over the
 * server's copy must equal one built over the node's own last write.
 */
export function scheduledCondition(old: readonly JsonObject[], now: number): JsonObject {
  const prev = old.find((c) => strAt(c, 'type') === 'PodScheduled');
  if (prev === undefined) return condition(old, 'PodScheduled', 'True', now);
  const out: JsonObject = {};
  for (const key of conditionKeys) if (prev[key] !== undefined) out[key] = prev[key];
  for (const key of Object.keys(prev)) if (!Object.hasOwn(out, key)) out[key] = prev[key]!;
  return out;
}

/** PodCondition's fields in the order Go's encoding/json prints them. */
const conditionKeys = ['type', 'status', 'lastProbeTime', 'lastTransitionTime', 'reason', 'message'] as const;

export function baseStatus(rt: PodRuntime, phase: string): JsonObject {
  const out: JsonObject = { phase, hostIP: rt.hostIP, startTime: rfc3339(rt.startTime) };
  if (rt.podIPs.length > 0) {
    out['podIP'] = rt.podIPs[0]!;
    out['podIPs'] = rt.podIPs.map((ip) => ({ ip }));
  }
  return out;
}

function containerBase(c: JsonObject): JsonObject {
  const image = strAt(c, 'image') ?? '';
  return { name: strAt(c, 'name') ?? '', image: normalizeImage(image), imageID: '', restartCount: 0 };
}

function uidOf(pod: JsonObject): string {
  return strAt(objAt(pod, 'metadata'), 'uid') ?? '';
}

/** Pending: the sandbox and containers are being created. */
export function pendingStatus(pod: JsonObject, rt: PodRuntime, now: number): JsonObject {
  const spec = objAt(pod, 'spec');
  const old = objsAt(objAt(pod, 'status'), 'conditions');
  const init = objsAt(spec, 'initContainers');
  const containers = objsAt(spec, 'containers');
  const waitReason = init.length > 0 ? 'PodInitializing' : 'ContainerCreating';
  const unready = `containers with unready status: [${names(containers).join(' ')}]`;
  const status = baseStatus({ ...rt, podIPs: [] }, 'Pending');
  status['conditions'] = [
    init.length > 0
      ? condition(
          old,
          'Initialized',
          'False',
          now,
          'ContainersNotInitialized',
          `containers with incomplete status: [${names(init).join(' ')}]`,
        )
      : condition(old, 'Initialized', 'True', now),
    condition(old, 'Ready', 'False', now, 'ContainersNotReady', unready),
    condition(old, 'ContainersReady', 'False', now, 'ContainersNotReady', unready),
    scheduledCondition(old, now),
  ];
  status['containerStatuses'] = containers.map((c) => ({
    ...containerBase(c),
    ready: false,
    started: false,
    state: { waiting: { reason: waitReason } },
    lastState: {},
  }));
  if (init.length > 0) {
    status['initContainerStatuses'] = init.map((c, i) => ({
      ...containerBase(c),
      ready: false,
      started: false,
      state: { waiting: { reason: i === 0 ? 'ContainerCreating' : 'PodInitializing' } },
      lastState: {},
    }));
  }
  return status;
}

function terminatedInit(pod: JsonObject, c: JsonObject, rt: PodRuntime): JsonObject {
  const name = strAt(c, 'name') ?? '';
  const id = containerID(uidOf(pod), name);
  return {
    ...containerBase(c),
    imageID: imageID(strAt(c, 'image') ?? ''),
    containerID: id,
    ready: true,
    started: false,
    state: {
      terminated: {
        exitCode: 0,
        reason: 'Completed',
        startedAt: rfc3339(rt.startTime),
        finishedAt: rfc3339(rt.startTime),
        containerID: id,
      },
    },
    lastState: {},
  };
}

/** Running: every container started; ready unless its readiness probe's initial delay runs. */
export function runningStatus(pod: JsonObject, rt: PodRuntime, ready: boolean, now: number): JsonObject {
  const spec = objAt(pod, 'spec');
  const old = objsAt(objAt(pod, 'status'), 'conditions');
  const init = objsAt(spec, 'initContainers');
  const containers = objsAt(spec, 'containers');
  const unready = `containers with unready status: [${names(containers).join(' ')}]`;
  const status = baseStatus(rt, 'Running');
  status['conditions'] = [
    condition(old, 'Initialized', 'True', now),
    ready
      ? condition(old, 'Ready', 'True', now)
      : condition(old, 'Ready', 'False', now, 'ContainersNotReady', unready),
    ready
      ? condition(old, 'ContainersReady', 'True', now)
      : condition(old, 'ContainersReady', 'False', now, 'ContainersNotReady', unready),
    scheduledCondition(old, now),
  ];
  status['containerStatuses'] = containers.map((c) => {
    const id = containerID(uidOf(pod), strAt(c, 'name') ?? '');
    return {
      ...containerBase(c),
      imageID: imageID(strAt(c, 'image') ?? ''),
      containerID: id,
      ready,
      started: true,
      state: { running: { startedAt: rfc3339(rt.startTime) } },
      lastState: {},
    };
  });
  if (init.length > 0) status['initContainerStatuses'] = init.map((c) => terminatedInit(pod, c, rt));
  return status;
}

/**
 * Every container exited with `exitCode` (0: Completed → Succeeded; else Error → Failed), as for a
 * Job pod that finished or a pod whose containers were stopped for its deletion.
 */
export function terminatedStatus(pod: JsonObject, rt: PodRuntime, exitCode: number, now: number): JsonObject {
  const spec = objAt(pod, 'spec');
  const old = objsAt(objAt(pod, 'status'), 'conditions');
  const init = objsAt(spec, 'initContainers');
  const containers = objsAt(spec, 'containers');
  const status = baseStatus(rt, exitCode === 0 ? 'Succeeded' : 'Failed');
  status['conditions'] = [
    condition(old, 'Initialized', 'True', now, 'PodCompleted'),
    condition(old, 'Ready', 'False', now, 'PodCompleted'),
    condition(old, 'ContainersReady', 'False', now, 'PodCompleted'),
    scheduledCondition(old, now),
  ];
  status['containerStatuses'] = containers.map((c) => {
    const id = containerID(uidOf(pod), strAt(c, 'name') ?? '');
    return {
      ...containerBase(c),
      imageID: imageID(strAt(c, 'image') ?? ''),
      containerID: id,
      ready: false,
      started: false,
      state: {
        terminated: {
          exitCode,
          reason: exitCode === 0 ? 'Completed' : 'Error',
          startedAt: rfc3339(rt.startTime),
          finishedAt: rfc3339(now),
          containerID: id,
        },
      },
      lastState: {},
    };
  });
  if (init.length > 0) status['initContainerStatuses'] = init.map((c) => terminatedInit(pod, c, rt));
  return status;
}
