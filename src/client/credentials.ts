/** Where the API server is and how the client proves who it is. */
export interface ClientCredentials {
  /** `https://host:port` */
  readonly server: string;
  /** PEM bundle the server's certificate is checked against. */
  readonly ca: string;
  /** PEM client certificate (with `key`): TLS client-certificate authentication. */
  readonly cert?: string;
  /** PEM private key of `cert`. */
  readonly key?: string;
  /** Bearer token, sent as `Authorization: Bearer <token>` on every request. */
  readonly token?: string;
}
