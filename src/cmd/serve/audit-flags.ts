/**
 * kube-apiserver's audit flags (k8s.io/apiserver pkg/server/options/audit.go, v1.27; AM-17):
 * --audit-policy-file and the log backend's --audit-log-*. Checked as upstream's
 * AuditLogOptions.Validate (only when --audit-log-path is set); what nanokube does not build is
 * refused, not ignored.
 */
import type { AuditLogMode } from '../../apiserver/audit/log-backend.js';

export interface AuditLogFlags {
  readonly path: string;
  readonly maxAge: number;
  readonly maxBackups: number;
  readonly maxSize: number;
  readonly mode: AuditLogMode;
  readonly bufferSize: number;
}

export interface AuditFlags {
  readonly policyFile?: string;
  readonly log?: AuditLogFlags;
}

export const auditFlagNames = new Set([
  'audit-policy-file',
  'audit-log-path',
  'audit-log-maxage',
  'audit-log-maxbackup',
  'audit-log-maxsize',
  'audit-log-format',
  'audit-log-mode',
  'audit-log-batch-buffer-size',
  'audit-log-version',
]);

export const auditUsage = `  --audit-policy-file FILE    audit.k8s.io/v1 Policy (YAML or JSON); without it nothing is audited
  --audit-log-path PATH       JSON lines of audit events to this file ('-': standard output)
  --audit-log-maxage DAYS     days to keep rotated audit files (default 0: no limit)
  --audit-log-maxbackup N     rotated audit files to keep (default 0: all)
  --audit-log-maxsize MB      size at which the audit file is rotated (default 0: 100 MB)
  --audit-log-format json     only json (legacy is not built)
  --audit-log-mode MODE       blocking (default: every event kept, written in order without
                              blocking the event loop) or batch (at most
                              --audit-log-batch-buffer-size events waiting, default 10000)
`;

export class AuditFlagError extends Error {
  override readonly name = 'AuditFlagError';
}

/** pflag's IntVar parse: Go's strconv.ParseInt(s, 0, 64). */
function int(name: string, v: string): number {
  if (!/^[+-]?\d+$/.test(v)) {
    throw new AuditFlagError(
      `invalid argument "${v}" for "--${name}" flag: strconv.ParseInt: parsing "${v}": invalid syntax`,
    );
  }
  return Number(v);
}

/** The audit flags of one command line (`raw`: flag name without dashes → last value). */
export function auditFlagsOf(raw: ReadonlyMap<string, string>): AuditFlags {
  const get = (n: string): string | undefined => raw.get(n);
  const maxAge = int('audit-log-maxage', get('audit-log-maxage') ?? '0');
  const maxBackups = int('audit-log-maxbackup', get('audit-log-maxbackup') ?? '0');
  const maxSize = int('audit-log-maxsize', get('audit-log-maxsize') ?? '0');
  const bufferSize = int('audit-log-batch-buffer-size', get('audit-log-batch-buffer-size') ?? '10000');
  const format = get('audit-log-format') ?? 'json';
  const mode = get('audit-log-mode') ?? 'blocking';
  const version = get('audit-log-version') ?? 'audit.k8s.io/v1';
  const path = get('audit-log-path') ?? '';
  const policyFile = get('audit-policy-file') ?? '';
  if (path === '') return policyFile !== '' ? { policyFile } : {};
  const errors: string[] = [];
  if (!['batch', 'blocking', 'blocking-strict'].includes(mode))
    errors.push(`invalid audit log mode ${mode}, allowed modes are "batch,blocking,blocking-strict"`);
  else if (mode === 'blocking-strict')
    errors.push('--audit-log-mode=blocking-strict is not supported by nanokube (use blocking or batch)');
  else if (mode === 'batch' && bufferSize <= 0)
    errors.push(`invalid audit batch log buffer size ${bufferSize}, must be a positive number`);
  if (version !== 'audit.k8s.io/v1')
    errors.push(`invalid group version, allowed versions are "audit.k8s.io/v1"`);
  if (!['legacy', 'json'].includes(format))
    errors.push(`invalid audit log format ${format}, allowed formats are "legacy,json"`);
  else if (format === 'legacy')
    errors.push('--audit-log-format=legacy is not supported by nanokube (use json)');
  if (maxAge < 0) errors.push(`--audit-log-maxage ${maxAge} can't be a negative number`);
  if (maxBackups < 0) errors.push(`--audit-log-maxbackup ${maxBackups} can't be a negative number`);
  if (maxSize < 0) errors.push(`--audit-log-maxsize ${maxSize} can't be a negative number`);
  if (errors.length > 0)
    throw new AuditFlagError(errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);
  return {
    ...(policyFile !== '' ? { policyFile } : {}),
    log: { path, maxAge, maxBackups, maxSize, mode: mode as AuditLogMode, bufferSize },
  };
}
