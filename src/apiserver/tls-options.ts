/**
 * `--tls-min-version` and `--tls-cipher-suites` as kube-apiserver v1.27 reads them
 * (k8s.io/component-base/cli/flag/ciphersuites_flag.go over Go 1.20's crypto/tls), turned into
 * what node:tls takes: a minimum protocol and an OpenSSL cipher list.
 *
 * Go names every suite it implements; a name Go does not know is refused with upstream's message,
 * and so is one this Node's OpenSSL cannot serve (RC4 and 3DES are not built in), since accepting
 * it would serve something other than what was asked. Go's "insecure" suites are accepted with
 * upstream's warning. TLS 1.3 suites are not configurable in Go (its three are always on): their
 * names are accepted and the three stay on here too.
 */
import { DEFAULT_CIPHERS, getCiphers } from 'node:tls';

/** node:tls's protocol names. */
export type TlsProtocol = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

/** Upstream's version names (cliflag's `versions` map). */
const versions: ReadonlyMap<string, TlsProtocol> = new Map([
  ['VersionTLS10', 'TLSv1'],
  ['VersionTLS11', 'TLSv1.1'],
  ['VersionTLS12', 'TLSv1.2'],
  ['VersionTLS13', 'TLSv1.3'],
]);

/** Go 1.20's tls.CipherSuites() up to TLS 1.2, with OpenSSL's names (plus cliflag's two legacy names). */
const secure: ReadonlyMap<string, string> = new Map([
  ['TLS_RSA_WITH_AES_128_CBC_SHA', 'AES128-SHA'],
  ['TLS_RSA_WITH_AES_256_CBC_SHA', 'AES256-SHA'],
  ['TLS_RSA_WITH_AES_128_GCM_SHA256', 'AES128-GCM-SHA256'],
  ['TLS_RSA_WITH_AES_256_GCM_SHA384', 'AES256-GCM-SHA384'],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', 'ECDHE-ECDSA-AES128-SHA'],
  ['TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA', 'ECDHE-ECDSA-AES256-SHA'],
  ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', 'ECDHE-RSA-AES128-SHA'],
  ['TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA', 'ECDHE-RSA-AES256-SHA'],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'ECDHE-ECDSA-AES128-GCM-SHA256'],
  ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'ECDHE-ECDSA-AES256-GCM-SHA384'],
  ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'ECDHE-RSA-AES128-GCM-SHA256'],
  ['TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'ECDHE-RSA-AES256-GCM-SHA384'],
  ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-RSA-CHACHA20-POLY1305'],
  ['TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-ECDSA-CHACHA20-POLY1305'],
  ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305', 'ECDHE-RSA-CHACHA20-POLY1305'],
  ['TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305', 'ECDHE-ECDSA-CHACHA20-POLY1305'],
]);

/** Go 1.20's tls.InsecureCipherSuites(), with OpenSSL's names. */
const insecure: ReadonlyMap<string, string> = new Map([
  ['TLS_RSA_WITH_RC4_128_SHA', 'RC4-SHA'],
  ['TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'DES-CBC3-SHA'],
  ['TLS_RSA_WITH_AES_128_CBC_SHA256', 'AES128-SHA256'],
  ['TLS_ECDHE_ECDSA_WITH_RC4_128_SHA', 'ECDHE-ECDSA-RC4-SHA'],
  ['TLS_ECDHE_RSA_WITH_RC4_128_SHA', 'ECDHE-RSA-RC4-SHA'],
  ['TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA', 'ECDHE-RSA-DES-CBC3-SHA'],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256', 'ECDHE-ECDSA-AES128-SHA256'],
  ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256', 'ECDHE-RSA-AES128-SHA256'],
]);

/** Go's TLS 1.3 suites: named in tls.CipherSuites(), always enabled, never configured. */
const tls13 = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'];

/** A `--tls-*` value upstream refuses; the message is upstream's. */
export class TlsOptionError extends Error {
  override readonly name = 'TlsOptionError';
}

/** Upstream's TLSVersion: empty is the default, TLS 1.2. */
export function tlsMinVersion(name: string): TlsProtocol {
  if (name === '') return 'TLSv1.2';
  const v = versions.get(name);
  if (v === undefined) throw new TlsOptionError(`unknown tls version ${JSON.stringify(name)}`);
  return v;
}

export interface CipherSuites {
  /** The OpenSSL cipher list (TLS 1.3 suites first, then the TLS 1.2 ones in the order given). */
  readonly openssl: string;
  /** The upstream names given that Go calls insecure (upstream warns about each at start-up). */
  readonly insecure: readonly string[];
}

/** Upstream's TLSCipherSuites over the suites this Node can serve. */
export function tlsCipherSuites(names: readonly string[]): CipherSuites {
  const available = new Set(getCiphers());
  const picked: string[] = [];
  const warned: string[] = [];
  for (const name of names) {
    if (tls13.includes(name)) continue;
    const openssl = secure.get(name) ?? insecure.get(name);
    if (openssl === undefined || !available.has(openssl.toLowerCase())) {
      throw new TlsOptionError(`Cipher suite ${name} not supported or doesn't exist`);
    }
    if (insecure.has(name)) warned.push(name);
    if (!picked.includes(openssl)) picked.push(openssl);
  }
  return { openssl: [...tls13, ...picked].join(':'), insecure: warned };
}

/** Upstream's flag help: every name it accepts, the preferred ones and the insecure ones. */
export const preferredCipherNames: readonly string[] = [...secure.keys(), ...tls13].sort();
export const insecureCipherNames: readonly string[] = [...insecure.keys()].sort();
export const tlsVersionNames: readonly string[] = [...versions.keys()];

/** What node:tls is given for a minimum version and an optional cipher list. */
export interface TlsServingOptions {
  readonly minVersion: TlsProtocol;
  readonly ciphers: string;
}

/**
 * The secure context's settings. OpenSSL 3 refuses TLS 1.0 and 1.1 at its default security level;
 * Go serves them when asked, so a minimum below 1.2 lowers the level to 0 (the operator asked for
 * old clients; nothing below TLS 1.2 is offered otherwise).
 */
export function tlsServingOptions(o: { minVersion?: TlsProtocol; ciphers?: string }): TlsServingOptions {
  const minVersion = o.minVersion ?? 'TLSv1.2';
  const list = o.ciphers ?? DEFAULT_CIPHERS;
  const legacy = minVersion === 'TLSv1' || minVersion === 'TLSv1.1';
  return { minVersion, ciphers: legacy ? `${list}:@SECLEVEL=0` : list };
}
