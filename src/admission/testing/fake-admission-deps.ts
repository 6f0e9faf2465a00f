/**
 * Test doubles for admission plugins: AdmissionDependencies over an in-memory object list, an
 * authorizer that allows what a predicate says (and records every question), a feature set and
 * per-plugin configuration; plus a user and an attributes builder.
 */
import type { KubeObject } from '../../machinery/object.js';
import type { UserInfo } from '../../machinery/user.js';
import type { JsonValue } from '../../util/json.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionResource } from '../attributes.js';
import type { AdmissionAuthorizationRequest, AdmissionDependencies, GroupResource } from '../dependencies.js';

export interface StoredObject {
  readonly group: string;
  readonly resource: string;
  readonly object: KubeObject;
}

export interface FakeDepsOptions {
  readonly objects?: readonly StoredObject[];
  /** Objects only the live read (getLive) finds, as after a cache miss. */
  readonly liveOnly?: readonly StoredObject[];
  readonly allow?: (r: AdmissionAuthorizationRequest) => boolean;
  readonly features?: readonly string[];
  readonly config?: Readonly<Record<string, JsonValue>>;
}

export interface FakeDeps extends AdmissionDependencies {
  readonly asked: AdmissionAuthorizationRequest[];
  readonly logged: string[];
}

function find(
  list: readonly StoredObject[],
  gr: GroupResource,
  namespace: string,
  name: string,
): KubeObject | undefined {
  return list.find(
    (s) =>
      s.group === gr.group &&
      s.resource === gr.resource &&
      (s.object.metadata.namespace ?? '') === namespace &&
      s.object.metadata.name === name,
  )?.object;
}

export function testDeps(options: FakeDepsOptions = {}): FakeDeps {
  const objects = options.objects ?? [];
  const live = [...objects, ...(options.liveOnly ?? [])];
  const asked: AdmissionAuthorizationRequest[] = [];
  const logged: string[] = [];
  const features = new Set(options.features ?? []);
  return {
    asked,
    logged,
    lookup: {
      get: (gr, namespace, name) => Promise.resolve(find(objects, gr, namespace, name)),
      list: (gr, namespace) =>
        Promise.resolve(
          objects
            .filter(
              (s) =>
                s.group === gr.group &&
                s.resource === gr.resource &&
                (namespace === '' || s.object.metadata.namespace === namespace),
            )
            .map((s) => s.object),
        ),
      getLive: (gr, namespace, name) => Promise.resolve(find(live, gr, namespace, name)),
    },
    authorize: (r) => {
      asked.push(r);
      return Promise.resolve(options.allow?.(r) ?? false);
    },
    features: { enabled: (name) => features.has(name) },
    now: () => Date.parse('2023-04-11T00:00:00Z'),
    pluginConfig: (name) => options.config?.[name],
    log: (m) => void logged.push(m),
    updateStatus: (_gr, object) => Promise.resolve(object),
  };
}

export function testUser(name = 'alice', groups: readonly string[] = ['system:authenticated']): UserInfo {
  return { name, uid: '', groups, extra: {} };
}

export interface AttrsInput {
  readonly operation?: AdmissionOperation;
  readonly group?: string;
  readonly version?: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced?: boolean;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly object?: KubeObject;
  readonly oldObject?: KubeObject;
  readonly user?: UserInfo;
}

export function attrsOf(input: AttrsInput): AdmissionAttributes {
  const resource: AdmissionResource = {
    group: input.group ?? '',
    version: input.version ?? 'v1',
    resource: input.resource,
    kind: input.kind,
    namespaced: input.namespaced ?? input.namespace !== undefined,
  };
  return {
    operation: input.operation ?? 'CREATE',
    resource,
    subresource: input.subresource ?? '',
    namespace: input.namespace ?? '',
    name: input.name ?? input.object?.metadata.name ?? '',
    ...(input.object !== undefined ? { object: input.object } : {}),
    ...(input.oldObject !== undefined ? { oldObject: input.oldObject } : {}),
    dryRun: false,
    user: input.user ?? testUser(),
  };
}

/** The attributes of a write that carries an object (what `admit` takes). */
export function objectAttrs(input: AttrsInput & { readonly object: KubeObject }): AdmissionAttributes & {
  readonly object: KubeObject;
} {
  return { ...attrsOf(input), object: input.object };
}

/** Runs the plugin's steps as the chain would (admit when there is an object, then validate). */
export async function runPlugin(
  plugin: {
    readonly operations: ReadonlySet<AdmissionOperation>;
    readonly admit?: (a: AdmissionAttributes & { readonly object: KubeObject }) => Promise<void> | void;
    readonly validate?: (a: AdmissionAttributes) => Promise<void> | void;
  },
  a: AdmissionAttributes,
): Promise<void> {
  if (!plugin.operations.has(a.operation)) return;
  if (plugin.admit !== undefined && a.object !== undefined) await plugin.admit({ ...a, object: a.object });
  if (plugin.validate !== undefined) await plugin.validate(a);
}

/** The thrown StatusError's code and message (for assert.rejects). */
export function statusOf(err: unknown): { code: number; message: string } {
  if (typeof err === 'object' && err !== null && 'status' in err) {
    const s = (err as { status: { code: number; message: string } }).status;
    return { code: s.code, message: s.message };
  }
  throw err;
}
