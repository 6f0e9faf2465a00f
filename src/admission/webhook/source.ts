/**
 * The webhooks of the stored Validating/MutatingWebhookConfigurations, read from the watch cache
 * and made ready to match (apiserver v0.27 configuration/ and webhook accessors): configurations
 * in name order, webhooks in their order, each with its match criteria and compiled match
 * conditions (AM-08), compiled once per stored version of the configuration.
 */
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import type { AdmissionDependencies } from '../dependencies.js';
import { matchCriteria, type MatchCriteria } from '../matching/criteria.js';
import { compileMatchConditions, type CompiledMatchCondition } from '../matching/match-conditions.js';
import { loadCelAdmission } from '../../cel/admission/load.js';

export type WebhookKind = 'mutating' | 'validating';

export interface Webhook {
  /** `<configuration>/<webhook>/<index>`, upstream's webhook accessor UID. */
  readonly uid: string;
  /** The connection pool's key: the configuration's uid, the webhook's name and index. */
  readonly transportKey: string;
  readonly configurationName: string;
  readonly name: string;
  readonly clientConfig: JsonObject;
  readonly criteria: MatchCriteria;
  readonly matchConditions: readonly CompiledMatchCondition[];
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly sideEffects: string;
  readonly timeoutMs: number;
  readonly reinvocationPolicy: 'Never' | 'IfNeeded';
  readonly admissionReviewVersions: readonly string[];
}

const GROUP = 'admissionregistration.k8s.io';

function str(o: JsonObject, key: string): string {
  const v = o[key];
  return typeof v === 'string' ? v : '';
}

/** Whether a configuration's webhooks have match conditions (which need the CEL engine loaded). */
function hasMatchConditions(config: KubeObject): boolean {
  const list = (config as unknown as JsonObject)['webhooks'];
  return (
    Array.isArray(list) &&
    list.some((h) => {
      const conditions =
        typeof h === 'object' && h !== null && !Array.isArray(h) ? h['matchConditions'] : undefined;
      return Array.isArray(conditions) && conditions.length > 0;
    })
  );
}

function compileConfiguration(config: KubeObject): Webhook[] {
  const name = config.metadata.name ?? '';
  const uid = config.metadata.uid ?? name;
  const list = (config as unknown as JsonObject)['webhooks'];
  const hooks = Array.isArray(list)
    ? list.filter((h): h is JsonObject => typeof h === 'object' && h !== null && !Array.isArray(h))
    : [];
  return hooks.map((h, i) => {
    const hookName = str(h, 'name');
    const clientConfig = h['clientConfig'];
    const timeout = h['timeoutSeconds'];
    const conditions = h['matchConditions'];
    return {
      uid: `${name}/${hookName}/${i}`,
      transportKey: `${uid}/${hookName}/${i}`,
      configurationName: name,
      name: hookName,
      clientConfig:
        typeof clientConfig === 'object' && clientConfig !== null && !Array.isArray(clientConfig)
          ? clientConfig
          : {},
      criteria: matchCriteria(h, { rulesKey: 'rules', emptyRulesMatchAll: false }),
      matchConditions: compileMatchConditions(
        Array.isArray(conditions)
          ? conditions.filter(
              (c): c is JsonObject => typeof c === 'object' && c !== null && !Array.isArray(c),
            )
          : [],
        { hasParams: false, hasAuthorizer: true },
      ),
      failurePolicy: str(h, 'failurePolicy') === 'Ignore' ? 'Ignore' : 'Fail',
      sideEffects: str(h, 'sideEffects'),
      timeoutMs: (typeof timeout === 'number' ? timeout : 10) * 1000,
      reinvocationPolicy: str(h, 'reinvocationPolicy') === 'IfNeeded' ? 'IfNeeded' : 'Never',
      admissionReviewVersions: Array.isArray(h['admissionReviewVersions'])
        ? h['admissionReviewVersions'].filter((v): v is string => typeof v === 'string')
        : [],
    };
  });
}

/** The current webhooks of one kind, recompiled only for configurations that changed. */
export function webhookSource(
  deps: AdmissionDependencies,
  kind: WebhookKind,
): () => Promise<readonly Webhook[]> {
  const gr = { group: GROUP, resource: `${kind}webhookconfigurations` };
  const compiled = new Map<string, { readonly version: string; readonly hooks: readonly Webhook[] }>();
  return async () => {
    const configs = await deps.lookup.list(gr, '');
    if (configs.length === 0 && compiled.size === 0) return [];
    const live = new Set<string>();
    const sorted = [...configs].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    const out: Webhook[] = [];
    for (const c of sorted) {
      const key = c.metadata.uid ?? c.metadata.name ?? '';
      live.add(key);
      const version = c.metadata.resourceVersion ?? '';
      let entry = compiled.get(key);
      if (entry?.version !== version) {
        if (hasMatchConditions(c)) await loadCelAdmission();
        for (const old of entry?.hooks ?? []) deps.webhooks?.forget(old.transportKey);
        entry = { version, hooks: compileConfiguration(c) };
        compiled.set(key, entry);
      }
      out.push(...entry.hooks);
    }
    for (const [key, entry] of compiled) {
      if (live.has(key)) continue;
      for (const old of entry.hooks) deps.webhooks?.forget(old.transportKey);
      compiled.delete(key);
    }
    return out;
  };
}

/** Requests on webhook configurations and policies are never sent to webhooks (upstream's exemption). */
export function isExemptAdmissionConfigurationResource(resource: { group: string; kind: string }): boolean {
  return (
    resource.group === GROUP &&
    [
      'ValidatingWebhookConfiguration',
      'MutatingWebhookConfiguration',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ].includes(resource.kind)
  );
}
