/**
 * The data dir's PKI: a CA, a serving certificate for the bind address/localhost, and an admin
 * client certificate (O=system:masters). ECDSA P-256 keeps the first start fast. The x509 library
 * is loaded only when something has to be created, so later starts pay nothing for it.
 */
import { X509Certificate, createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { StartupError } from './startup-error.js';

export interface Pki {
  readonly caCert: string;
  readonly servingCert: string;
  readonly servingKey: string;
  readonly adminCert: string;
  readonly adminKey: string;
}

const files = {
  caCert: 'ca.crt',
  caKey: 'ca.key',
  servingCert: 'apiserver.crt',
  servingKey: 'apiserver.key',
  adminCert: 'admin.crt',
  adminKey: 'admin.key',
} as const;

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const tenYears = 10 * 365 * 24 * 3600 * 1000;

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${b64.endsWith('\n') ? b64 : `${b64}\n`}-----END ${label}-----\n`;
}

function unpem(text: string): ArrayBuffer {
  const b64 = text.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  const buf = Buffer.from(b64, 'base64');
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}

async function generate(dir: string, hosts: readonly string[]): Promise<void> {
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  // Node's webcrypto is the Web Crypto API the library expects.
  x509.cryptoProvider.set(webcrypto as Parameters<typeof x509.cryptoProvider.set>[1]);
  const subtle = webcrypto.subtle;
  const now = new Date(Date.now() - 60_000);
  const notAfter = new Date(now.getTime() + tenYears);
  const serial = (): string =>
    Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
      .toString('hex')
      .replace(/^[89a-f]/, '1');
  const keys = (): Promise<webcrypto.CryptoKeyPair> =>
    subtle.generateKey(algorithm, true, ['sign', 'verify']);

  let caKeys: webcrypto.CryptoKeyPair;
  let caCert: InstanceType<typeof x509.X509Certificate>;
  if (existsSync(join(dir, files.caKey)) && existsSync(join(dir, files.caCert))) {
    const keyPem = await readFile(join(dir, files.caKey), 'utf8');
    const privateKey = await subtle.importKey('pkcs8', unpem(keyPem), algorithm, true, ['sign']);
    const spki = createPublicKey(keyPem).export({ type: 'spki', format: 'der' });
    const publicKey = await subtle.importKey('spki', spki, algorithm, true, ['verify']);
    caCert = new x509.X509Certificate(await readFile(join(dir, files.caCert), 'utf8'));
    caKeys = { privateKey, publicKey };
  } else {
    caKeys = await keys();
    caCert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: serial(),
      name: 'CN=nanokube-ca',
      notBefore: now,
      notAfter,
      signingAlgorithm: algorithm,
      keys: caKeys,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
          true,
        ),
        await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
      ],
    });
    await writeFile(
      join(dir, files.caKey),
      pem('PRIVATE KEY', await subtle.exportKey('pkcs8', caKeys.privateKey)),
      { mode: 0o600 },
    );
    await writeFile(join(dir, files.caCert), caCert.toString('pem') + '\n');
  }

  const leaf = async (
    name: string,
    usage: 'server' | 'client',
    sans: readonly string[],
  ): Promise<[string, string]> => {
    const k = await keys();
    const extensions: InstanceType<typeof x509.Extension>[] = [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([
        usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth,
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ];
    if (sans.length > 0) {
      extensions.push(
        new x509.SubjectAlternativeNameExtension(
          sans.map((h) => ({ type: isIP(h) !== 0 ? ('ip' as const) : ('dns' as const), value: h })),
        ),
      );
    }
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: serial(),
      subject: name,
      issuer: caCert.subject,
      notBefore: now,
      notAfter,
      signingAlgorithm: algorithm,
      publicKey: k.publicKey,
      signingKey: caKeys.privateKey,
      extensions,
    });
    return [cert.toString('pem') + '\n', pem('PRIVATE KEY', await subtle.exportKey('pkcs8', k.privateKey))];
  };

  if (!existsSync(join(dir, files.servingCert)) || !existsSync(join(dir, files.servingKey))) {
    const [cert, key] = await leaf('CN=kube-apiserver', 'server', [
      ...new Set([
        '127.0.0.1',
        'localhost',
        '::1',
        'kubernetes',
        'kubernetes.default',
        'kubernetes.default.svc',
        ...hosts,
      ]),
    ]);
    await writeFile(join(dir, files.servingKey), key, { mode: 0o600 });
    await writeFile(join(dir, files.servingCert), cert);
  }
  if (!existsSync(join(dir, files.adminCert)) || !existsSync(join(dir, files.adminKey))) {
    const [cert, key] = await leaf('CN=kubernetes-admin, O=system:masters', 'client', []);
    await writeFile(join(dir, files.adminKey), key, { mode: 0o600 });
    await writeFile(join(dir, files.adminCert), cert);
  }
}

function complete(dir: string): boolean {
  return Object.values(files).every((f) => existsSync(join(dir, f)));
}

/** The PKI in `dir` when every file is there (checked: StartupError names a bad one), else undefined. */
export async function loadPki(dir: string): Promise<Pki | undefined> {
  return complete(dir) ? readPki(dir) : undefined;
}

/** Loads the PKI from `dir`, creating whatever is missing. */
export async function ensurePki(dir: string, hosts: readonly string[]): Promise<Pki> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (!complete(dir)) {
    try {
      await generate(
        dir,
        hosts.filter((h) => h !== '0.0.0.0' && h !== '::' && h !== ''),
      );
    } catch (err) {
      // Possibly from CA files an operator put there (several servers share one CA).
      throw new StartupError(
        `cannot make credentials in ${dir}: ${err instanceof Error ? err.message : String(err)} (fix the files there, or remove ${dir} to have new credentials made)`,
      );
    }
  }
  return readPki(dir);
}

async function readPki(dir: string): Promise<Pki> {
  const read = (f: string): Promise<string> => readFile(join(dir, f), 'utf8');
  const [caCert, servingCert, servingKey, adminCert, adminKey] = await Promise.all([
    read(files.caCert),
    read(files.servingCert),
    read(files.servingKey),
    read(files.adminCert),
    read(files.adminKey),
  ]);
  const pki = { caCert, servingCert, servingKey, adminCert, adminKey };
  checkPki(dir, pki);
  return pki;
}

/**
 * Refuses a PKI whose files do not parse or whose certificates and keys do not belong together,
 * naming the file: a server must not start with a client CA that verifies nobody, a serving key
 * TLS cannot load or an admin kubeconfig that cannot log in.
 */
function checkPki(dir: string, pki: Pki): void {
  const problem = (file: string, what: string): StartupError =>
    new StartupError(`${join(dir, file)}: ${what} (fix it, or remove ${dir} to have new credentials made)`);
  const cert = (file: string, text: string): X509Certificate => {
    try {
      return new X509Certificate(text);
    } catch {
      throw problem(file, 'not a PEM certificate');
    }
  };
  const key = (file: string, text: string): ReturnType<typeof createPrivateKey> => {
    try {
      return createPrivateKey(text);
    } catch {
      throw problem(file, 'not a PEM private key');
    }
  };
  const ca = cert(files.caCert, pki.caCert);
  // The admin kubeconfig's certificate must verify against the client CA; the serving
  // certificate may come from another CA.
  const pairs = [
    {
      certFile: files.servingCert,
      certText: pki.servingCert,
      keyFile: files.servingKey,
      keyText: pki.servingKey,
      byCa: false,
    },
    {
      certFile: files.adminCert,
      certText: pki.adminCert,
      keyFile: files.adminKey,
      keyText: pki.adminKey,
      byCa: true,
    },
  ];
  for (const p of pairs) {
    const certificate = cert(p.certFile, p.certText);
    if (!certificate.checkPrivateKey(key(p.keyFile, p.keyText))) {
      throw problem(p.keyFile, `not the key of ${p.certFile}`);
    }
    if (p.byCa && !(certificate.checkIssued(ca) && certificate.verify(ca.publicKey))) {
      throw problem(p.certFile, `not issued by ${files.caCert}`);
    }
  }
}
