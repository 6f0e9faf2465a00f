/**
 * `--authorization-mode` (upstream BuiltInAuthorizationOptions): a comma-separated list of
 * AlwaysAllow, AlwaysDeny, RBAC and Node, asked in order after the privileged group
 * (`system:masters`), with upstream's validation messages. nanokube defaults to RBAC (upstream
 * v1.27's default is AlwaysAllow): secure by default. ABAC and Webhook are valid upstream but not
 * built here: without their files (which nanokube has no flags for) upstream's validation already
 * refuses them, so the server never starts without the authorizer it was asked for.
 */
import { goQuotedList } from '../../apis/rbac/v1/evaluation.js';

/** An invalid or unsupported `--authorization-mode`. */
export class AuthorizationModeError extends Error {
  override readonly name = 'AuthorizationModeError';
}

export type AuthorizationMode = 'AlwaysAllow' | 'AlwaysDeny' | 'RBAC' | 'Node';

export const defaultAuthorizationModes: readonly AuthorizationMode[] = ['RBAC'];

const upstreamModes = new Set(['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node']);

/** Parses and validates the flag's value (pflag's StringSlice: comma-separated). */
export function parseAuthorizationModes(value: string): AuthorizationMode[] {
  const modes = value === '' ? [] : value.split(',');
  const errors: string[] = [];
  if (modes.length === 0) errors.push('at least one authorization-mode must be passed');
  for (const mode of modes) {
    if (!upstreamModes.has(mode)) errors.push(`authorization-mode "${mode}" is not a valid mode`);
    if (mode === 'ABAC') errors.push("authorization-mode ABAC's authorization policy file not passed");
    if (mode === 'Webhook') errors.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (new Set(modes).size !== modes.length) {
    errors.push(`authorization-mode ${goQuotedList(modes)} has mode specified more than once`);
  }
  if (errors.length > 0) {
    throw new AuthorizationModeError(errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);
  }
  return modes as AuthorizationMode[];
}
