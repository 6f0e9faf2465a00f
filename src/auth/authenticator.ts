/**
 * The authentication contract (upstream authenticator.Request): an authenticator looks at a
 * request's credentials and either names the user, finds nothing it understands, or fails. A
 * presented credential that cannot be verified fails the request (401); it is never ignored.
 */
import type { UserInfo } from '../machinery/user.js';

/** What the TLS layer learnt about the client's certificate. */
export interface ClientCertificate {
  /** The TLS handshake verified the chain against the client CA (validity period and usage too). */
  readonly verified: boolean;
  /** OpenSSL's verification error when not verified (e.g. CERT_HAS_EXPIRED). */
  readonly error?: string;
  readonly commonName: string;
  readonly organizations: readonly string[];
}

/** The credentials of one request. */
export interface Credentials {
  /** Absent when the client sent no certificate. */
  readonly certificate?: ClientCertificate;
  /** The `Authorization` header, when sent. */
  readonly authorization?: string;
  /**
   * The audiences the credential must be meant for (upstream authenticator.WithAudiences): a
   * TokenReview's spec.audiences; by default the server's API audiences.
   */
  readonly audiences?: readonly string[];
}

export type AuthenticationResult =
  | {
      readonly kind: 'authenticated';
      readonly user: UserInfo;
      /** The audiences the credential was accepted for (tokens with audiences). */
      readonly audiences?: readonly string[];
      /** Warnings for the request's answer (e.g. a legacy service-account token was used). */
      readonly warnings?: readonly string[];
      /** Annotations for the request's audit event (e.g. `authentication.k8s.io/legacy-token`). */
      readonly auditAnnotations?: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'none' }
  | { readonly kind: 'failed'; readonly reason: string };

export interface Authenticator {
  authenticate(credentials: Credentials): AuthenticationResult | Promise<AuthenticationResult>;
}
