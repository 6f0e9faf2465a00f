/**
 * Audit at start (upstream AuditOptions.ApplyTo, AM-17): the policy file is loaded and validated
 * (an invalid one stops the server), the log backend opened. A log without a policy records
 * nothing, and a policy without a log has nowhere to write, as upstream.
 */
import { readFile } from 'node:fs/promises';
import { AuditLogBackend } from '../../apiserver/audit/log-backend.js';
import type { AuditPolicy } from '../../apiserver/audit/policy.js';
import { AuditPolicyError, parseAuditPolicy } from '../../apiserver/audit/policy.js';
import type { AuditConfig } from '../../apiserver/filters/audit.js';
import type { Logger } from '../../util/log.js';
import type { AuditFlags } from './audit-flags.js';

export interface AuditSetup {
  readonly config?: AuditConfig;
  /** Writes what is queued and closes the log. */
  close(): Promise<void>;
}

/** upstream LoadPolicyFromFile, with its messages. */
export async function loadAuditPolicyFile(path: string, log?: Logger): Promise<AuditPolicy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new AuditPolicyError(
      `loading audit policy file: failed to read file path "${path}": ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  try {
    return parseAuditPolicy(text, (w) => log?.info(w));
  } catch (err) {
    throw new AuditPolicyError(
      `loading audit policy file: ${err instanceof Error ? err.message : String(err)}: from file ${path}`,
    );
  }
}

export async function setUpAudit(flags: AuditFlags, log: Logger): Promise<AuditSetup> {
  const policy =
    flags.policyFile !== undefined ? await loadAuditPolicyFile(flags.policyFile, log) : undefined;
  if (flags.log === undefined) return { close: () => Promise.resolve() };
  if (policy === undefined) {
    log.v(2, 'No audit policy file provided, no events will be recorded for log backend');
    return { close: () => Promise.resolve() };
  }
  const backend = new AuditLogBackend({
    path: flags.log.path,
    maxAge: flags.log.maxAge,
    maxBackups: flags.log.maxBackups,
    maxSize: flags.log.maxSize,
    mode: flags.log.mode,
    bufferSize: flags.log.bufferSize,
    onError: (message) => log.error(message),
  });
  try {
    await backend.open();
  } catch (err) {
    throw new Error(`ensureLogFile: ${err instanceof Error ? err.message : String(err)}`);
  }
  log.v(2, 'Using audit backend: log');
  return { config: { policy, sink: backend }, close: () => backend.close() };
}
