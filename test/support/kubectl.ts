/**
 * Finds kubectl 1.27: $KUBECTL, then `kubectl.1.27` beside the real file `kubectl` on PATH links to
 * (the Cloud SDK ships versioned binaries), then plain `kubectl`. Undefined when none exists.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

function onPath(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const p = join(dir, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

export function findKubectl(): string | undefined {
  const env = process.env['KUBECTL'];
  if (env !== undefined && env !== '' && existsSync(env)) return env;
  const plain = onPath('kubectl');
  if (plain !== undefined) {
    const beside = join(dirname(realpathSync(plain)), 'kubectl.1.27');
    if (existsSync(beside)) return beside;
    return plain;
  }
  return undefined;
}

export const kubectlSkipReason =
  'kubectl not found: set KUBECTL, or install kubectl 1.27 (kubectl.1.27 beside kubectl on PATH)';

export function kubectlVersion(bin: string): string {
  const out = execFileSync(bin, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  const parsed = JSON.parse(out) as { clientVersion?: { gitVersion?: string } };
  return parsed.clientVersion?.gitVersion ?? 'unknown';
}

/**
 * The newest kubectl of 1.32 or later (they send protobuf bodies): $KUBECTL_NEWER, else the highest
 * `kubectl.1.3x` beside the real file `kubectl` on PATH links to. Undefined when none exists.
 */
export function findNewerKubectl(): string | undefined {
  const env = process.env['KUBECTL_NEWER'];
  if (env !== undefined && env !== '' && existsSync(env)) return env;
  const plain = onPath('kubectl');
  if (plain === undefined) return undefined;
  const dir = dirname(realpathSync(plain));
  for (let minor = 40; minor >= 32; minor--) {
    const p = join(dir, `kubectl.1.${minor}`);
    if (existsSync(p)) return p;
  }
  return undefined;
}
