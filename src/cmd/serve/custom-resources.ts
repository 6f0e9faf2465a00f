/**
 * Serving custom resources (apiextensions-apiserver v0.27's crdHandler, discovery and OpenAPI
 * controllers, with its naming/establishing and finalizer controllers): one CRD informer over the
 * in-process client; its first handler adds a CRD's endpoints (every served version, with
 * discovery and OpenAPI) as soon as its names are accepted and replaces them when its spec, names
 * or terminating state change; the controllers then run on the same informer, so a CRD is served
 * before a client can see it Established.
 */
import { customResourceDecoder } from '../../apiserver/custom-resource-decoder.js';
import type { CustomResourceDecoding } from '../../apiserver/custom-resource-decoder.js';
import type { BodyDecoder } from '../../apiserver/decode-request.js';
import type { Definition } from '../../apis/schema/types.js';
import { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import { crdsPath } from '../../controllers/apiextensions/conditions.js';
import { CrdFinalizer } from '../../controllers/apiextensions/finalizer.js';
import { NamingController } from '../../controllers/apiextensions/naming.js';
import type { KubeObject } from '../../machinery/object.js';
import { crdConditionTrue, crdView } from '../../registry/customresources/crd-view.js';
import type { CrdVersion, CrdView } from '../../registry/customresources/crd-view.js';
import { customResource } from '../../registry/customresources/resource.js';
import type { CustomResourceSchemaOps } from '../../registry/customresources/resource.js';
import type { WebhookPost } from '../../registry/customresources/conversion-webhook.js';
import type { RegistryResource } from '../../registry/resource.js';
import type { Clock } from '../../util/clock.js';
import type { JsonObject } from '../../util/json.js';
import type { Logger } from '../../util/log.js';
import { re2Pending } from '../../util/re2.js';

/** The schema machinery of one CRD: validation/defaulting for the registry, pruning for decoding. */
export interface CustomResourceSchemas {
  readonly ops: CustomResourceSchemaOps;
  readonly decoding: CustomResourceDecoding;
}

export interface ResourceRegistration {
  add(resource: RegistryResource, definitions: readonly Definition[], decode: BodyDecoder): void;
  remove(resource: RegistryResource, definitions: readonly string[]): void;
}

export interface CustomResourceServingOptions {
  readonly client: RestClient;
  readonly resources: ResourceRegistration;
  /** Builds the schema machinery of a CRD (structural schemas, CEL rules). */
  readonly schemas: (view: CrdView) => CustomResourceSchemas;
  /** The OpenAPI definitions of one served version (kind and list kind). */
  readonly definitions: (view: CrdView, version: CrdVersion) => Definition[];
  readonly log: Logger;
  readonly clock?: Clock;
  /** Sends ConversionReviews to CRDs' conversion webhooks. */
  readonly conversionPost?: WebhookPost;
}

interface Served {
  readonly fingerprint: string;
  readonly resource: RegistryResource;
  readonly definitions: readonly string[];
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** What, when it changes, makes the endpoints of a CRD be rebuilt. */
function fingerprintOf(crd: KubeObject, view: CrdView): string {
  return JSON.stringify([
    view.uid,
    crd['spec'],
    view.acceptedNames,
    crdConditionTrue(crd, 'Terminating') || view.deleting,
  ]);
}

function servable(crd: KubeObject, view: CrdView): boolean {
  return (
    (crdConditionTrue(crd, 'NamesAccepted') || crdConditionTrue(crd, 'Established')) &&
    view.acceptedNames.kind !== '' &&
    view.acceptedNames.plural !== '' &&
    view.versions.some((v) => v.served)
  );
}

export function serveCustomResources(o: CustomResourceServingOptions): { stop(): Promise<void> } {
  const served = new Map<string, Served>();
  const remove = (name: string): void => {
    const s = served.get(name);
    if (s === undefined) return;
    served.delete(name);
    o.resources.remove(s.resource, s.definitions);
  };
  const sync = (obj: JsonObject): void => {
    const crd = obj as KubeObject;
    const name = crd.metadata.name ?? '';
    const view = crdView(crd);
    if (!servable(crd, view)) {
      remove(name);
      return;
    }
    const fingerprint = fingerprintOf(crd, view);
    if (served.get(name)?.fingerprint === fingerprint) return;
    remove(name);
    try {
      const schemas = o.schemas(view);
      const resource = customResource(view, {
        schema: schemas.ops,
        terminating: crdConditionTrue(crd, 'Terminating') || view.deleting,
        ...(o.conversionPost !== undefined ? { conversionPost: o.conversionPost } : {}),
      });
      const definitions = view.versions.filter((v) => v.served).flatMap((v) => o.definitions(view, v));
      o.resources.add(resource, definitions, customResourceDecoder(schemas.decoding));
      served.set(name, { fingerprint, resource, definitions: definitions.map((d) => d.name) });
    } catch (err) {
      o.log.error(`customresourcedefinition ${name}: not served: ${message(err)}`);
    }
  };
  const abort = new AbortController();
  const informers = new SharedInformerFactory({
    client: o.client,
    ...(o.clock !== undefined ? { clock: o.clock } : {}),
    useWatchList: 'never',
    onError: (err, path) => o.log.v(2, `informer ${path}: ${message(err)}`),
  });
  const crds = informers.informerFor(crdsPath);
  // Publishing a CRD checks its schema (patterns compile: RE2, loaded on first use). Until RE2 is
  // loaded, events wait on the one loading promise, which runs them in the order they came, and
  // all of them before any later event.
  const inOrder = (fn: () => void): void => {
    const loading = re2Pending();
    if (loading === undefined) fn();
    else loading.then(fn, (err: unknown) => o.log.error(`custom resources: ${message(err)}`));
  };
  // First handler: serving follows every event before the controllers act on it.
  crds.addEventHandler({
    onAdd: (crd) => inOrder(() => sync(crd)),
    onUpdate: (_old, crd) => inOrder(() => sync(crd)),
    onDelete: (crd) => inOrder(() => remove((crd as KubeObject).metadata.name ?? '')),
  });
  const onError = (what: string) => (err: unknown) => o.log.v(2, `${what}: ${message(err)}`);
  const running = [
    new NamingController({
      client: o.client,
      crds,
      ...(o.clock !== undefined ? { clock: o.clock } : {}),
      onError: onError('crd-naming-controller'),
    }).run(abort.signal),
    new CrdFinalizer({
      client: o.client,
      crds,
      ...(o.clock !== undefined ? { clock: o.clock } : {}),
      onError: onError('crd-finalizer'),
    }).run(abort.signal),
  ];
  informers.start(abort.signal);
  return {
    async stop() {
      abort.abort();
      await Promise.allSettled(running);
      await informers.stopped();
      for (const name of [...served.keys()]) remove(name);
    },
  };
}
