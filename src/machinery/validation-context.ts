/** What validation and strategies may know about a request: its namespace, user and the feature gates. */
import type { UserInfo } from './user.js';

export interface FeatureGateReader {
  enabled(name: string): boolean;
}

export interface StrategyContext {
  /** Namespace of the request ('' for cluster-scoped). */
  readonly namespace: string;
  /** Enabled feature gates. */
  readonly features: FeatureGateReader;
  /**
   * The group/version the request was made at, when it is not the storage version (upstream's
   * request info: events.k8s.io/v1 validates Events more strictly than core/v1).
   */
  readonly requestVersion?: { readonly group: string; readonly version: string };
  /** Who asks (CertificateSigningRequests record the requesting user on create). */
  readonly user?: UserInfo;
}

/**
 * How `metadata.name` is validated (upstream passes a ValidateNameFunc): RFC 1123 subdomain (most
 * kinds), RFC 1123 label (namespaces), RFC 1035 label (services), or only path-segment rules.
 */
export type NameValidation = 'dns1123Subdomain' | 'dns1123Label' | 'dns1035Label' | 'pathSegment';
