/**
 * The RegistryResource of the custom resources one CRD defines (what apiextensions-apiserver's
 * crdHandler builds per CRD in getOrCreateServingInfoFor, v0.27): stored at the storage version
 * under `/<group>/<plural>`, served at every served version with `None` conversion (only
 * apiVersion changes), defaulted on the way out of storage, the version's printer columns, status
 * and scale subresources.
 */
import { allVerbs } from '../../apis/resource.js';
import type { ResourceInfo } from '../../apis/resource.js';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import type { RegistryResource, ServedVersion } from '../resource.js';
import { storageVersionName } from './crd-view.js';
import { customResourceDefinitionName } from './definitions.js';
import type { CrdVersion, CrdView } from './crd-view.js';
import { customResourceStatusStrategy, customResourceStrategy, noValidation } from './strategy.js';
import type { CustomResourceValidation } from './strategy.js';
import { customResourceTable } from './table.js';
import { convertThroughWebhook } from './conversion-webhook.js';
import type { WebhookPost } from './conversion-webhook.js';

/** What the schema layer contributes per version: validation and defaulting. */
export interface CustomResourceSchemaOps {
  readonly validation: CustomResourceValidation;
  /** Whether the version's schema sets any default (objects read from storage are defaulted then). */
  hasDefaults(version: string): boolean;
  /** Applies the version's schema defaults in place (structural defaulting). */
  defaults(version: string, obj: KubeObject): void;
  /**
   * Drops the fields the version's schema does not know (none with preserveUnknownFields), as
   * upstream's storage codec does on every write: what a mutating webhook added is pruned too.
   */
  prune?(version: string, obj: KubeObject): void;
}

export const noSchemaOps: CustomResourceSchemaOps = {
  validation: noValidation,
  hasDefaults: () => false,
  defaults: () => {},
};

function infoOf(view: CrdView, v: CrdVersion): ResourceInfo {
  const names = view.acceptedNames;
  return {
    group: view.group,
    version: v.name,
    kind: names.kind,
    resource: names.plural,
    singular: names.singular,
    namespaced: view.namespaced,
    ...(names.shortNames.length > 0 ? { shortNames: names.shortNames } : {}),
    ...(names.categories.length > 0 ? { categories: names.categories } : {}),
    definition: customResourceDefinitionName(view.group, v.name, names.kind),
    listDefinition: customResourceDefinitionName(view.group, v.name, names.listKind),
    // The custom resource strategies' GetResetFields.
    ...(v.status ? { resetFields: { main: ['status'], status: ['spec'] } } : {}),
    verbs: allVerbs,
    unstructured: true,
    ...(v.status ? { statusSubresource: true } : {}),
    ...(v.scale !== undefined ? { scale: v.scale } : {}),
    // crdHandler: a deprecated version warns on every request.
    ...(v.deprecated
      ? { deprecationWarning: v.deprecationWarning ?? `${view.group}/${v.name} ${names.kind} is deprecated` }
      : {}),
  };
}

/** The same object at another version of the group (None conversion). */
function atVersion(obj: KubeObject, apiVersion: string): KubeObject {
  return obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion };
}

export interface CustomResourceOptions {
  readonly schema?: CustomResourceSchemaOps;
  /** Sends a ConversionReview to a webhook (a CRD with `Webhook` conversion needs it). */
  readonly conversionPost?: WebhookPost;
  /** The CRD is being deleted: creates are refused (405), as crdHandler does. */
  readonly terminating?: boolean;
}

/**
 * The resource for a CRD whose names are accepted. Versions not served are left out; the
 * storage version is the hub even when it is not served.
 */
export function customResource(view: CrdView, options: CustomResourceOptions = {}): RegistryResource {
  const ops = options.schema ?? noSchemaOps;
  const storageName = storageVersionName(view);
  const storage = view.versions.find((v) => v.name === storageName) ?? view.versions[0]!;
  const storageApiVersion = `${view.group}/${storage.name}`;
  const versions = new Map(view.versions.map((v) => [v.name, v]));
  const webhook = view.conversion.strategy === 'Webhook' ? view.conversion.webhook : undefined;
  const post = options.conversionPost;
  const converter = webhook !== undefined && post !== undefined ? { webhook, post } : undefined;
  const strategyOptions = {
    group: view.group,
    kind: view.acceptedNames.kind,
    namespaced: view.namespaced,
    storageVersion: storage.name,
    // Any version with a status subresource makes status reset on the main resource (upstream
    // checks the request version's; versions differing here are rare and refused by nothing).
    status: storage.status,
    scale: (version: string) => versions.get(version)?.scale,
    validation: ops.validation,
    terminating: options.terminating ?? false,
    // Webhook-converted objects reach the strategy at the storage version, validated as such.
    validateAtStorage: converter !== undefined,
    plural: view.acceptedNames.plural,
    ...(ops.prune !== undefined ? { prune: ops.prune.bind(ops) } : {}),
  };
  const served: ServedVersion[] = view.versions
    .filter((v) => v.served)
    .map((v) => {
      const apiVersion = `${view.group}/${v.name}`;
      const defaulted = ops.hasDefaults(v.name);
      return {
        info: {
          ...infoOf(view, v),
          // Upstream's unstructuredDefaulter: what admission defaults after a webhook's patch.
          ...(defaulted ? { defaulter: (obj: JsonObject) => ops.defaults(v.name, obj as KubeObject) } : {}),
        },
        toStorage: (obj) => atVersion(obj, storageApiVersion),
        fromStorage(obj) {
          if (!defaulted) return atVersion(obj, apiVersion);
          const out = structuredClone(obj);
          out.apiVersion = apiVersion;
          ops.defaults(v.name, out);
          return out;
        },
        // Stored objects are defaulted on read, at the storage version too; objects written
        // before the storage version changed are still labelled with their old version.
        ...(defaulted || (v.name === storage.name && view.versions.length > 1)
          ? { alwaysConvert: true }
          : {}),
        table: customResourceTable(v.columns),
      };
    });
  const withWebhook: ServedVersion[] =
    converter === undefined
      ? served
      : served.map((sv) => {
          const apiVersion = `${view.group}/${sv.info.version}`;
          return {
            ...sv,
            // Objects written before the storage version changed are still at their old version:
            // reads at the storage version convert them too (the others pass through unchanged).
            convertAsync: {
              toStorage: (objects) => convertThroughWebhook(converter, objects, storageApiVersion),
              async fromStorage(objects) {
                const out = await convertThroughWebhook(converter, objects, apiVersion);
                if (ops.hasDefaults(sv.info.version)) for (const o of out) ops.defaults(sv.info.version, o);
                return out;
              },
            },
          };
        });
  const status = view.versions.some((v) => v.served && v.status);
  return {
    info: infoOf(view, storage),
    servedVersions: withWebhook,
    strategy: customResourceStrategy(strategyOptions),
    ...(status ? { statusStrategy: customResourceStatusStrategy(strategyOptions) } : {}),
    table: customResourceTable(storage.columns),
  };
}
