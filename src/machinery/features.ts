/**
 * Feature gates with kube-apiserver v1.27 defaults (`--feature-gates=Name=true,...`). Alpha gates
 * are off until enabled; GA gates locked to true may not be turned off.
 */
import type { FeatureGateReader } from './validation-context.js';

export type Stage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

interface GateSpec {
  readonly default: boolean;
  readonly stage: Stage;
  readonly locked?: boolean;
}

/** The v1.27 gates nanokube's features depend on (names and defaults as upstream). */
export const v127Gates: Readonly<Record<string, GateSpec>> = {
  AdmissionWebhookMatchConditions: { default: false, stage: 'ALPHA' },
  AggregatedDiscoveryEndpoint: { default: true, stage: 'BETA' },
  AnyVolumeDataSource: { default: true, stage: 'BETA' },
  APIListChunking: { default: true, stage: 'BETA' },
  APIPriorityAndFairness: { default: true, stage: 'BETA' },
  APIResponseCompression: { default: true, stage: 'BETA' },
  APISelfSubjectReview: { default: true, stage: 'BETA' },
  AdvancedAuditing: { default: true, stage: 'GA', locked: true },
  ClusterTrustBundle: { default: false, stage: 'ALPHA' },
  CronJobTimeZone: { default: true, stage: 'GA', locked: true },
  CrossNamespaceVolumeDataSource: { default: false, stage: 'ALPHA' },
  DynamicResourceAllocation: { default: false, stage: 'ALPHA' },
  GRPCContainerProbe: { default: true, stage: 'GA', locked: true },
  HPAContainerMetrics: { default: true, stage: 'BETA' },
  HPAScaleToZero: { default: false, stage: 'ALPHA' },
  InPlacePodVerticalScaling: { default: false, stage: 'ALPHA' },
  KMSv2: { default: true, stage: 'BETA' },
  LegacyServiceAccountTokenTracking: { default: true, stage: 'BETA' },
  MinimizeIPTablesRestore: { default: true, stage: 'BETA' },
  MultiCIDRRangeAllocator: { default: false, stage: 'ALPHA' },
  MultiCIDRServiceAllocator: { default: false, stage: 'ALPHA' },
  NetworkPolicyStatus: { default: false, stage: 'ALPHA' },
  OpenAPIV3: { default: true, stage: 'GA', locked: true },
  PDBUnhealthyPodEvictionPolicy: { default: true, stage: 'BETA' },
  PodDisruptionConditions: { default: true, stage: 'BETA' },
  PodSchedulingReadiness: { default: true, stage: 'BETA' },
  ReadWriteOncePod: { default: true, stage: 'BETA' },
  RecoverVolumeExpansionFailure: { default: false, stage: 'ALPHA' },
  RetroactiveDefaultStorageClass: { default: true, stage: 'BETA' },
  SELinuxMountReadWriteOncePod: { default: true, stage: 'BETA' },
  SecurityContextDeny: { default: false, stage: 'ALPHA' },
  ServerSideApply: { default: true, stage: 'GA', locked: true },
  ServerSideFieldValidation: { default: true, stage: 'GA', locked: true },
  ServiceIPStaticSubrange: { default: true, stage: 'GA', locked: true },
  ServiceNodePortStaticSubrange: { default: false, stage: 'ALPHA' },
  StatefulSetStartOrdinal: { default: true, stage: 'BETA' },
  TopologyAwareHints: { default: true, stage: 'BETA' },
  ValidatingAdmissionPolicy: { default: false, stage: 'ALPHA' },
  WatchList: { default: false, stage: 'ALPHA' },
};

export class FeatureGateError extends Error {
  override readonly name = 'FeatureGateError';
}

export class FeatureGates implements FeatureGateReader {
  readonly #values = new Map<string, boolean>();

  constructor(overrides: Readonly<Record<string, boolean>> = {}) {
    for (const [name, spec] of Object.entries(v127Gates)) this.#values.set(name, spec.default);
    for (const [name, value] of Object.entries(overrides)) {
      const spec = v127Gates[name];
      if (spec === undefined) throw new FeatureGateError(`unrecognized feature gate: ${name}`);
      if (spec.locked === true && value !== spec.default) {
        throw new FeatureGateError(
          `cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`,
        );
      }
      this.#values.set(name, value);
    }
  }

  /** Parses `A=true,B=false` as the --feature-gates flag does. */
  static parse(flag: string): Record<string, boolean> {
    const out: Record<string, boolean> = {};
    for (const part of flag.split(',')) {
      const item = part.trim();
      if (item === '') continue;
      const eq = item.indexOf('=');
      if (eq < 0) throw new FeatureGateError(`missing bool value for ${item}`);
      const key = item.slice(0, eq).trim();
      const v = item
        .slice(eq + 1)
        .trim()
        .toLowerCase();
      if (v !== 'true' && v !== 'false')
        throw new FeatureGateError(
          `invalid value of ${key}=${v}, err: strconv.ParseBool: parsing "${v}": invalid syntax`,
        );
      out[key] = v === 'true';
    }
    return out;
  }

  enabled(name: string): boolean {
    return this.#values.get(name) ?? false;
  }
}
