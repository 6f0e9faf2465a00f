#!/usr/bin/env node
// The package as a user gets it: `npm pack`, install the tarball into an empty directory (npm
// registry or cache only), then `npx nanokube serve` must answer kubectl. Prints the tarball's
// size, the install time and the time to ready; exits non-zero on any failure.
//
//   npm run build && node scripts/pack-check.mjs [--out FILE] [--kubectl PATH]
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const say = (m) => process.stderr.write(`[pack-check] ${m}\n`);

function findKubectl() {
  if (arg('--kubectl')) return arg('--kubectl');
  if (process.env.KUBECTL) return process.env.KUBECTL;
  try {
    const onPath = execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim();
    let target = onPath;
    try {
      target = resolve(dirname(onPath), readlinkSync(onPath));
    } catch {
      // not a link
    }
    const beside = join(dirname(target), 'kubectl.1.27');
    return existsSync(beside) ? beside : onPath;
  } catch {
    return undefined;
  }
}

if (!existsSync(join(root, 'dist', 'nanokube.js'))) throw new Error('build first: npm run build');
const work = mkdtempSync(join(tmpdir(), 'nanokube-pack-'));
let server;
try {
  // The build is already there: pack it as it is (no prepare script, no second build).
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  )[0];
  const tarball = join(work, packed.filename);
  const sizeMiB = statSync(tarball).size / 1024 / 1024;
  say(
    `${packed.filename}: ${sizeMiB.toFixed(1)} MiB packed, ${(packed.unpackedSize / 1024 / 1024).toFixed(1)} MiB unpacked, ${packed.entryCount} files`,
  );

  const app = join(work, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  const t0 = performance.now();
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: app,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const installSeconds = (performance.now() - t0) / 1000;
  say(`npm install of the tarball into an empty directory: ${installSeconds.toFixed(1)} s`);

  // The library entry resolves from the installed package.
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const m = await import('nanokube'); if (typeof m.startCluster !== 'function') process.exit(1);",
    ],
    {
      cwd: app,
      stdio: 'inherit',
    },
  );

  const dataDir = join(work, 'data');
  const t1 = performance.now();
  server = spawn('npx', ['--no-install', 'nanokube', 'serve', '--data-dir', dataDir, '--secure-port', '0'], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  const ready = await new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line in 60 s:\n${out}`)), 60_000);
    const onData = (c) => {
      out += c.toString();
      const m = /export KUBECONFIG=(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveReady(m[1]);
      }
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', (c) => (out += c.toString()));
    server.on('exit', (code) => reject(new Error(`nanokube serve exited (${code}):\n${out}`)));
  });
  const readySeconds = (performance.now() - t1) / 1000;
  say(`npx nanokube serve: ready in ${readySeconds.toFixed(2)} s (npx included)`);
  const kubectl = findKubectl();
  let answered = 'skipped: no kubectl';
  if (kubectl !== undefined) {
    answered = execFileSync(kubectl, ['get', 'namespaces', '-o', 'name'], {
      env: { ...process.env, KUBECONFIG: ready },
      encoding: 'utf8',
    }).trim();
    if (!answered.split('\n').includes('namespace/kube-system'))
      throw new Error(`kubectl answered:\n${answered}`);
    say(`kubectl get namespaces: ${answered.split('\n').join(' ')}`);
  }
  const result = {
    date: new Date().toISOString(),
    tarball: packed.filename,
    packedMiB: Number(sizeMiB.toFixed(2)),
    unpackedMiB: Number((packed.unpackedSize / 1024 / 1024).toFixed(2)),
    files: packed.entryCount,
    installSeconds: Number(installSeconds.toFixed(1)),
    readySeconds: Number(readySeconds.toFixed(2)),
    kubectl: answered,
  };
  const outFile = arg('--out');
  if (outFile) writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  if (server !== undefined && server.exitCode === null) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // gone already
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  rmSync(work, { recursive: true, force: true });
}
