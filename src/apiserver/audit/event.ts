/**
 * The audit.k8s.io/v1 Event as kube-apiserver v1.27 writes it (k8s.io/apiserver pkg/apis/audit/v1,
 * AM-17): field order and omitted empty fields as Go's encoding/json produces them, timestamps as
 * metav1.MicroTime (RFC 3339 with six fractional digits, UTC), source IPs as utilnet.SourceIPs.
 */
import type { UserInfo } from '../../machinery/user.js';
import { formatIPBytes, parseIPSloppy } from '../../machinery/validation/ip.js';
import type { AuditLevel, AuditStage } from './policy.js';

/** authentication.k8s.io/v1 UserInfo (empty fields omitted). */
export interface AuditUserInfo {
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export interface AuditObjectReference {
  readonly resource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly apiGroup?: string;
  readonly apiVersion?: string;
  readonly resourceVersion?: string;
  readonly subresource?: string;
}

/** The metav1.Status subset upstream keeps in responseStatus (`metadata` is always there). */
export interface AuditResponseStatus {
  readonly metadata: Record<string, never>;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly details?: unknown;
  readonly code?: number;
}

export interface AuditEvent {
  readonly kind: 'Event';
  readonly apiVersion: 'audit.k8s.io/v1';
  readonly level: AuditLevel;
  readonly auditID: string;
  readonly stage: AuditStage;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: AuditUserInfo;
  readonly impersonatedUser?: AuditUserInfo;
  readonly sourceIPs?: readonly string[];
  readonly userAgent?: string;
  readonly objectRef?: AuditObjectReference;
  readonly responseStatus?: AuditResponseStatus;
  readonly requestObject?: unknown;
  readonly responseObject?: unknown;
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
  readonly annotations?: Readonly<Record<string, string>>;
}

/**
 * Where events go (upstream audit.Sink). Returns false when the event could not be stored; a sink
 * must not throw (a throw is treated as false).
 */
export interface AuditSink {
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- a sink that cannot fail returns nothing
  process(event: AuditEvent): boolean | void;
}

/** UserInfo as the event carries it: Go's omitempty drops empty strings, lists and maps. */
export function auditUser(user: UserInfo): AuditUserInfo {
  const extra = Object.entries(user.extra);
  return {
    ...(user.name !== '' ? { username: user.name } : {}),
    ...(user.uid !== '' ? { uid: user.uid } : {}),
    ...(user.groups.length > 0 ? { groups: [...user.groups] } : {}),
    ...(extra.length > 0 ? { extra: Object.fromEntries(extra.map(([k, v]) => [k, [...v]])) } : {}),
  };
}

/** Microseconds since the epoch, now (performance's clock, anchored at its time origin). */
export function nowMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** metav1.MicroTime's JSON: `2006-01-02T15:04:05.000000Z`. */
export function microTime(epochMicros: number): string {
  const ms = Math.floor(epochMicros / 1000);
  const iso = new Date(ms).toISOString(); // ...T15:04:05.123Z
  const micros = String(epochMicros - Math.floor(epochMicros / 1e6) * 1e6).padStart(6, '0');
  return `${iso.slice(0, 19)}.${micros}Z`;
}

/** User agents longer than 1024 bytes are cut there and marked (upstream maybeTruncateUserAgent). */
export function truncatedUserAgent(ua: string | undefined): string {
  if (ua === undefined) return '';
  const bytes = Buffer.from(ua, 'utf8');
  if (bytes.length <= 1024) return ua;
  return `${bytes.subarray(0, 1024).toString('utf8')}...TRUNCATED`;
}

/**
 * utilnet.SourceIPs: the X-Forwarded-For chain, X-Real-Ip unless already in it, then the peer
 * address unless it is already the last one.
 */
export function sourceIPs(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  remote: string | undefined,
): string[] {
  const ips: string[] = [];
  const header = (name: string): string => {
    const v = headers[name];
    return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
  };
  const parse = (s: string): string | undefined => {
    const b = parseIPSloppy(s.trim());
    return b === undefined ? undefined : formatIPBytes(b);
  };
  const forwarded = header('x-forwarded-for');
  if (forwarded !== '') {
    for (const part of forwarded.split(',')) {
      const ip = parse(part);
      if (ip !== undefined) ips.push(ip);
    }
  }
  const real = header('x-real-ip');
  if (real !== '') {
    const ip = parse(real);
    if (ip !== undefined && !ips.includes(ip)) ips.push(ip);
  }
  const peer = remote === undefined ? undefined : parse(remote);
  if (peer !== undefined && (ips.length === 0 || ips[ips.length - 1] !== peer)) ips.push(peer);
  return ips;
}
