/**
 * Admission for `nanokube serve`: reads `--admission-control-config-file`, picks the plugins from
 * `--enable-admission-plugins` / `--disable-admission-plugins`, and builds the chain over the
 * server's stores (reads from their watch caches, live reads from storage, ResourceQuota status
 * writes through the `/status` strategy) and its authorizer. The generic stores take the chain's
 * two callbacks; computed creates (pods/binding, pods/eviction, serviceaccounts/token, the
 * reviews) and connect subresources are wrapped here so that they are admitted as upstream's are.
 */
import { buildAdmissionChain } from '../../admission/builtin.js';
import type { AdmissionChain } from '../../admission/chain.js';
import { emptyAdmissionConfig, readAdmissionConfig } from '../../admission/config-file.js';
import type {
  AdmissionDependencies,
  GroupResource,
  ResourceMapper,
  ServedResource,
  WebhookTransport,
} from '../../admission/dependencies.js';
import { enabledPluginNames } from '../../admission/options.js';
import type { VirtualEndpoint } from '../../apiserver/virtual-endpoint.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { celAuthorizer } from '../../auth/cel-authorizer.js';
import { StatusError } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { serverUser } from '../../machinery/user.js';
import type { GenericStore } from '../../registry/generic/store.js';
import { servedVersionsOf, VersionedStore } from '../../registry/versioned-store.js';
import { queryFlag } from '../../registry/resources/core/pod-connect.js';

export interface AdmissionFlags {
  /** `--enable-admission-plugins`. */
  readonly enable?: readonly string[];
  /** `--disable-admission-plugins`. */
  readonly disable?: readonly string[];
  /** `--admission-control-config-file`. */
  readonly configFile?: string;
}

export interface AdmissionSetup {
  readonly chain: AdmissionChain;
  readonly names: readonly string[];
}

/** `apps/v1` → ['apps', 'v1'], `v1` → ['', 'v1']. */
function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

function notFound(err: unknown): boolean {
  return err instanceof StatusError && err.code === 404;
}

/** Checks the flags and the configuration file before anything is opened; throws upstream's messages. */
export async function prepareAdmission(flags: AdmissionFlags): Promise<{
  names: string[];
  pluginConfig: AdmissionDependencies['pluginConfig'];
}> {
  const names = enabledPluginNames({
    ...(flags.enable !== undefined ? { enable: flags.enable } : {}),
    ...(flags.disable !== undefined ? { disable: flags.disable } : {}),
  });
  const config =
    flags.configFile !== undefined && flags.configFile !== ''
      ? await readAdmissionConfig(flags.configFile)
      : emptyAdmissionConfig;
  return { names, pluginConfig: (name) => config.pluginConfig(name) };
}

export interface AdmissionWiring {
  readonly names: readonly string[];
  readonly pluginConfig: AdmissionDependencies['pluginConfig'];
  /**
   * The server's stores by `group/resource`, custom resources' included (filled after the chain
   * is built; read lazily).
   */
  readonly stores: () => Iterable<GenericStore>;
  readonly storeOf: (key: string) => GenericStore | undefined;
  readonly authorizer: Authorizer;
  readonly features: { enabled(name: string): boolean };
  readonly log: (message: string) => void;
  /** Posts to admission webhooks. */
  readonly webhooks?: WebhookTransport;
}

export function setUpAdmission(w: AdmissionWiring): AdmissionSetup {
  const storeOf = (gr: GroupResource): GenericStore | undefined => w.storeOf(`${gr.group}/${gr.resource}`);
  const served = (store: GenericStore): ServedResource[] =>
    servedVersionsOf(store.resource).map((v) => ({
      group: v.info.group,
      version: v.info.version,
      resource: v.info.resource,
      kind: v.info.kind,
      namespaced: v.info.namespaced,
    }));
  /** The served version of `gr` an object's apiVersion names. */
  const versionOf = (
    gr: GroupResource,
    object: KubeObject,
  ): ReturnType<typeof servedVersionsOf>[number] | undefined => {
    const store = storeOf(gr);
    const [group, version] = splitApiVersion(object.apiVersion ?? '');
    return store === undefined
      ? undefined
      : servedVersionsOf(store.resource).find((v) => v.info.group === group && v.info.version === version);
  };
  const resources: ResourceMapper = {
    forKind: (group, version, kind) => {
      for (const store of w.stores()) {
        const info = store.resource.info;
        if (info.group !== group || info.kind !== kind) continue;
        const match = served(store).find((v) => v.version === version);
        if (match !== undefined) return match;
      }
      return undefined;
    },
    versions: (group, resource) => {
      const store = storeOf({ group, resource });
      return store === undefined ? [] : served(store);
    },
    convert: async (gr, object, version) => {
      const store = storeOf(gr);
      const target =
        store === undefined
          ? undefined
          : servedVersionsOf(store.resource).find((v) => v.info.version === version);
      if (store === undefined || target === undefined) {
        throw new Error(`no version ${version} of ${gr.resource}.${gr.group} is served`);
      }
      return new VersionedStore(store, target).outMany([object]).then((list) => list[0]!);
    },
    toStorage: async (gr, object) => {
      const source = versionOf(gr, object);
      if (source === undefined) {
        throw new Error(`no version ${object.apiVersion ?? ''} of ${gr.resource}.${gr.group} is served`);
      }
      const converter = source.convertAsync;
      return converter !== undefined ? (await converter.toStorage([object]))[0]! : source.toStorage(object);
    },
    defaults: (gr, object) => versionOf(gr, object)?.info.defaulter?.(object),
  };
  const deps: AdmissionDependencies = {
    lookup: {
      get: async (gr, namespace, name) => {
        const store = storeOf(gr);
        if (store === undefined) return undefined;
        const cached = store.cachedItem(namespace, name);
        if (cached !== undefined) return cached ?? undefined;
        try {
          return await store.get(namespace, name, '0');
        } catch (err) {
          if (notFound(err)) return undefined;
          throw err;
        }
      },
      getLive: async (gr, namespace, name) => {
        const store = storeOf(gr);
        if (store === undefined) return undefined;
        try {
          return await store.get(namespace, name);
        } catch (err) {
          if (notFound(err)) return undefined;
          throw err;
        }
      },
      list: async (gr, namespace) => {
        const store = storeOf(gr);
        if (store === undefined) return [];
        return store.cachedItems(namespace) ?? (await store.list(namespace, { resourceVersion: '0' })).items;
      },
      listLive: async (gr, namespace) => (await storeOf(gr)?.list(namespace, {}))?.items ?? [],
    },
    authorize: async (r) => {
      const result = await w.authorizer.authorize({
        user: r.user,
        verb: r.verb,
        isResourceRequest: true,
        path: '',
        namespace: r.namespace ?? '',
        apiGroup: r.apiGroup,
        apiVersion: '*',
        resource: r.resource,
        subresource: r.subresource ?? '',
        name: r.name,
      });
      return result.decision === 'allow';
    },
    features: w.features,
    resources,
    celAuthorizer: (user) => celAuthorizer(w.authorizer, user),
    ...(w.webhooks !== undefined ? { webhooks: w.webhooks } : {}),
    now: () => Date.now(),
    pluginConfig: w.pluginConfig,
    log: w.log,
    updateStatus: async (gr, object) => {
      const store = storeOf(gr);
      if (store === undefined) throw new Error(`${gr.resource}.${gr.group} is not served`);
      const strategy = store.resource.statusStrategy;
      const result = await store.update(
        object.metadata.namespace ?? '',
        object.metadata.name ?? '',
        () => object,
        {
          dryRun: false,
          user: serverUser,
          subresource: 'status',
          ...(strategy !== undefined ? { strategy } : {}),
        },
      );
      return result.object;
    },
  };
  return { chain: buildAdmissionChain(w.names, deps), names: w.names };
}

/** Computed creates and connects go through the chain as CREATE / CONNECT of their subresource. */
export function admitVirtualEndpoint(e: VirtualEndpoint, chain: AdmissionChain): VirtualEndpoint {
  const target = e.parent ?? e.info;
  const resource = {
    group: target.group,
    version: target.version,
    resource: target.resource,
    kind: e.info.kind,
    namespaced: e.info.namespaced,
  };
  const subresource = e.subresource ?? '';
  const create = e.create;
  const connect = e.connect;
  return {
    ...e,
    ...(create !== undefined
      ? {
          create: async (r) => {
            const attributes = {
              operation: 'CREATE' as const,
              resource,
              subresource,
              namespace: r.namespace,
              name: r.name,
              object: r.object,
              dryRun: r.dryRun,
              user: r.user,
              addWarning: r.warn,
            };
            await chain.mutate(attributes);
            await chain.validate(attributes);
            return create(r);
          },
        }
      : {}),
    // pods/log is a read with options, not a connect: upstream admits no request to it.
    ...(connect !== undefined && subresource !== 'log'
      ? {
          connect: {
            ...connect,
            handle: async (r) => {
              const options = connectOptions(target.resource, subresource, r.query, r.path);
              const attributes = {
                operation: 'CONNECT' as const,
                resource,
                subresource,
                namespace: r.namespace,
                name: r.name,
                object: options,
                dryRun: false,
                user: r.user,
              };
              await chain.mutate(attributes);
              await chain.validate(attributes);
              return connect.handle(r);
            },
          },
        }
      : {}),
  };
}

/** The options kinds upstream decodes a connect request into, by resource/subresource. */
const connectKinds: Readonly<Record<string, string>> = {
  'pods/exec': 'PodExecOptions',
  'pods/attach': 'PodAttachOptions',
  'pods/portforward': 'PodPortForwardOptions',
  'pods/proxy': 'PodProxyOptions',
  'services/proxy': 'ServiceProxyOptions',
  'nodes/proxy': 'NodeProxyOptions',
};

/**
 * A connect request's options object, as upstream decodes the query (and, for the proxies, the
 * path after `proxy/`) into it for admission: PodAttachOptions {stdin, stdout, stderr, tty,
 * container}, PodExecOptions with `command`, PodPortForwardOptions {ports}, *ProxyOptions {path}.
 * Zero values are left out, as Go's omitempty does (an empty `metadata` stays for the plugins).
 */
function connectOptions(
  resource: string,
  subresource: string,
  query: URLSearchParams,
  path: string,
): KubeObject {
  const options: KubeObject = {
    kind: connectKinds[`${resource}/${subresource}`] ?? '',
    apiVersion: 'v1',
    metadata: {},
  };
  const o = options as unknown as Record<string, unknown>;
  if (subresource === 'exec' || subresource === 'attach') {
    for (const k of ['stdin', 'stdout', 'stderr', 'tty']) if (queryFlag(query, k)) o[k] = true;
    const container = query.get('container') ?? '';
    if (container !== '') o['container'] = container;
    const command = query.getAll('command');
    if (subresource === 'exec' && command.length > 0) o['command'] = command;
  } else if (subresource === 'portforward') {
    const ports = query
      .getAll('ports')
      .map(Number)
      .filter((n) => Number.isInteger(n));
    if (ports.length > 0) o['ports'] = ports;
  } else if (subresource === 'proxy') {
    const p = path.replace(/^\//, '') || (query.get('path') ?? '');
    if (p !== '') o['path'] = p;
  }
  return options;
}
