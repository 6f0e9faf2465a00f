/**
 * What the service-account token validators read (upstream ServiceAccountTokenGetter), injected
 * by cmd/ so auth/ stays off storage. Every call reads the current state: nothing is cached, so a
 * deleted service account, pod or secret invalidates its tokens at once.
 */
import type { KubeObject } from '../../machinery/object.js';

export interface ServiceAccountTokenGetter {
  /** undefined when not found. */
  serviceAccount(namespace: string, name: string): Promise<KubeObject | undefined>;
  pod(namespace: string, name: string): Promise<KubeObject | undefined>;
  secret(namespace: string, name: string): Promise<KubeObject | undefined>;
}

/** Labels a legacy token Secret (upstream's merge patch with the Secret's uid as precondition). */
export type SecretLabeler = (secret: KubeObject, labels: Readonly<Record<string, string>>) => Promise<void>;
