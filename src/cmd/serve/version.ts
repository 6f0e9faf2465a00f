/** /version: reports v1.27.x with a nanokube suffix. */
import type { JsonObject } from '../../util/json.js';

export const kubernetesVersion = 'v1.27.16';
export const nanokubeVersion = '0.1.0';

export function versionInfo(): JsonObject {
  return {
    major: '1',
    minor: '27',
    gitVersion: `${kubernetesVersion}+nanokube-${nanokubeVersion}`,
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '2026-11-29T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'nanokube',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
