/**
 * /version: v1.27.x with a nanokube suffix, shaped as a release build reports it. The bundle
 * (scripts/bundle.mjs) records the git commit it was built from, its tree state and the build time;
 * code run straight from the sources reports the fallbacks below.
 */
import type { JsonObject } from '../../util/json.js';

export const kubernetesVersion = 'v1.27.16';
export const nanokubeVersion = '0.1.0';

interface BuildInfo {
  readonly gitCommit: string;
  readonly gitTreeState: string;
  readonly buildDate: string;
}

/** Replaced by the bundler (esbuild `define`); absent when running from the sources. */
declare const __NANOKUBE_BUILD__: BuildInfo | undefined;

/** A well-formed commit for builds that could not read one (no git at build time). */
const unknownCommit = '0000000000000000000000000000000000000000';

function buildInfo(): BuildInfo {
  const fromBundle = typeof __NANOKUBE_BUILD__ === 'undefined' ? undefined : __NANOKUBE_BUILD__;
  return {
    gitCommit:
      fromBundle?.gitCommit !== undefined && fromBundle.gitCommit !== ''
        ? fromBundle.gitCommit
        : unknownCommit,
    gitTreeState:
      fromBundle?.gitTreeState !== undefined && fromBundle.gitTreeState !== ''
        ? fromBundle.gitTreeState
        : 'clean',
    buildDate: fromBundle?.buildDate ?? '2026-11-29T00:00:00Z',
  };
}

export function versionInfo(): JsonObject {
  const build = buildInfo();
  return {
    major: '1',
    minor: '27',
    gitVersion: `${kubernetesVersion}+nanokube-${nanokubeVersion}`,
    gitCommit: build.gitCommit,
    gitTreeState: build.gitTreeState,
    buildDate: build.buildDate,
    goVersion: `node${process.versions.node}`,
    compiler: 'nanokube',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
