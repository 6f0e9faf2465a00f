/**
 * Validation of bound tokens (upstream claims.go validator.Validate, v1.27): the time claims with
 * go-jose's one-minute leeway, then the service account, and the secret or pod the token is bound
 * to, must still exist with the uids in the token (objects whose deletion began more than a
 * leeway ago count as gone).
 */
import type { KubeObject } from '../../machinery/object.js';
import { boundPrivateClaimsOf } from './claims.js';
import type { ServiceAccountTokenGetter } from './getters.js';
import { TokenValidationError } from './jwt-authenticator.js';
import type { ServiceAccountInfo, TokenValidator } from './jwt-authenticator.js';

/** go-jose's jwt.DefaultLeeway, in seconds. */
export const leewaySeconds = 60;

export interface BoundValidatorOptions {
  readonly getter: ServiceAccountTokenGetter;
  /** Milliseconds since the epoch (tests pass a fake clock). */
  readonly now?: () => number;
}

function deletedBefore(o: KubeObject, limitMs: number): boolean {
  const ts = o.metadata.deletionTimestamp;
  return ts !== undefined && Date.parse(ts) < limitMs;
}

export function boundTokenValidator(o: BoundValidatorOptions): TokenValidator {
  const now = o.now ?? Date.now;
  return {
    async validate({ claims, payload }) {
      const nowMs = now();
      const t = nowMs / 1000;
      // go-jose ValidateWithLeeway, in its order.
      if (claims.nbf !== undefined && t + leewaySeconds < claims.nbf) {
        throw new TokenValidationError('service account token is not valid yet');
      }
      if (claims.exp !== undefined && t - leewaySeconds > claims.exp) {
        throw new TokenValidationError('service account token has expired');
      }
      if (claims.iat !== undefined && t + leewaySeconds < claims.iat) {
        throw new TokenValidationError('service account token is issued in the future');
      }
      const invalidIfDeletedBefore = nowMs - leewaySeconds * 1000;
      const k = boundPrivateClaimsOf(payload);
      const { namespace } = k;
      const saRef = k.serviceAccount;
      const sa = await o.getter.serviceAccount(namespace, saRef.name);
      if (sa === undefined) throw new TokenValidationError(`serviceaccounts "${saRef.name}" not found`);
      if (deletedBefore(sa, invalidIfDeletedBefore)) {
        throw new TokenValidationError(`service account ${namespace}/${saRef.name} has been deleted`);
      }
      const saUID = sa.metadata.uid ?? '';
      if (saUID !== saRef.uid) {
        throw new TokenValidationError(`service account UID (${saUID}) does not match claim (${saRef.uid})`);
      }
      if (k.secret !== undefined) {
        const secret = await o.getter.secret(namespace, k.secret.name);
        if (secret === undefined || deletedBefore(secret, invalidIfDeletedBefore)) {
          throw new TokenValidationError('service account token has been invalidated');
        }
        const uid = secret.metadata.uid ?? '';
        if (k.secret.uid !== uid) {
          throw new TokenValidationError(
            `secret UID (${uid}) does not match service account secret ref claim (${k.secret.uid})`,
          );
        }
      }
      let pod: { name: string; uid: string } | undefined;
      if (k.pod !== undefined) {
        const p = await o.getter.pod(namespace, k.pod.name);
        if (p === undefined || deletedBefore(p, invalidIfDeletedBefore)) {
          throw new TokenValidationError('service account token has been invalidated');
        }
        const uid = p.metadata.uid ?? '';
        if (k.pod.uid !== uid) {
          throw new TokenValidationError(
            `pod UID (${uid}) does not match service account pod ref claim (${k.pod.uid})`,
          );
        }
        pod = k.pod;
      }
      const info: ServiceAccountInfo = {
        namespace,
        name: saRef.name,
        uid: saRef.uid,
        ...(pod !== undefined ? { podName: pod.name, podUID: pod.uid } : {}),
      };
      // A pod token past its `warnafter` (the kubelet's extended hour) is audited as stale.
      const auditAnnotations: Record<string, string> = {};
      if (k.warnAfter !== undefined && k.warnAfter !== 0 && t > k.warnAfter) {
        auditAnnotations['authentication.k8s.io/stale-token'] =
          `subject: ${claims.sub}, seconds after warning threshold: ${Math.floor(t) - k.warnAfter}`;
      }
      return { info, warnings: [], auditAnnotations };
    },
  };
}
