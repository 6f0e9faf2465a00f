// Bundles the executable after tsc: loading ~250 small ES modules costs Node's loader more than
// the server's own start-up work, and start-up time is a target (< 0.3 s).
//   dist/nanokube.js  the CLI and the whole server (the bin)
//   dist/x509.js      the x509 stack (reflect-metadata + @peculiar/x509), loaded only on a first
//                     start to create the PKI: one file loads ~0.1 s faster than its many modules,
//                     and keeping it out of the main bundle keeps every restart lean
//   dist/grpc.js      the gRPC client (@grpc/grpc-js and what it pulls in, ~600 KiB), loaded only
//                     when a KMS v2 plugin is configured
//   dist/net-thread.js  the entry of `serve --net-thread`'s network thread: the TLS front door
//                     alone, so that the thread does not load (and hold) the whole server
//   dist/<name>-<hash>.js  chunks of the main bundle that the code imports dynamically: the CEL
//                     validation and RE2 (loaded before the first CRD or custom resource write),
//                     the OpenAPI builders, and code they share. They sit beside the bundle so
//                     that the relative imports of x509.js and grpc.js hold in every file.
// The native SQLite addon stays external.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';

/** What /version reports about this build: the commit it was built from, its tree state, when. */
function buildInfo() {
  const git = (...args) => {
    try {
      return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  const commit = git('rev-parse', 'HEAD');
  return {
    gitCommit: /^[0-9a-f]{40}$/.test(commit) ? commit : '',
    gitTreeState: commit === '' ? '' : git('status', '--porcelain') === '' ? 'clean' : 'dirty',
    buildDate: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // Less source to compile at start-up; identifiers stay readable in stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  external: ['better-sqlite3'],
  // CommonJS dependencies (yaml, the x509 stack) call require(); give each bundle one.
  banner: {
    js: "import { createRequire as __nanokubeCreateRequire } from 'node:module';\nconst require = __nanokubeCreateRequire(import.meta.url);",
  },
  logLevel: 'error',
};

/** In the main bundle, the x509 packages resolve to the separate dist/x509.js, gRPC to dist/grpc.js. */
const split = {
  name: 'split',
  setup(b) {
    b.onResolve({ filter: /^(@peculiar\/x509|reflect-metadata)$/ }, () => ({
      path: './x509.js',
      external: true,
    }));
    b.onResolve({ filter: /^@grpc\/grpc-js$/ }, () => ({ path: './grpc.js', external: true }));
  },
};

mkdirSync('dist/bundle-entries', { recursive: true });
// Chunks of an earlier build (their names carry a content hash).
const chunk = /^[a-z0-9-]+-[A-Z0-9]{8}\.js(\.map)?$/;
for (const name of readdirSync('dist')) if (chunk.test(name)) rmSync(`dist/${name}`);
writeFileSync('dist/bundle-entries/x509.js', "import 'reflect-metadata';\nexport * from '@peculiar/x509';\n");
// Named re-exports: `export *` of a CommonJS package would re-export nothing. These are the names
// src/storage/value/encrypt/kmsv2/grpc-service.ts and src/storage/kv/etcd/client.ts use.
writeFileSync(
  'dist/bundle-entries/grpc.js',
  "export { Client, Metadata, credentials } from '@grpc/grpc-js';\n",
);

await Promise.all([
  build({
    ...common,
    entryPoints: { nanokube: 'dist/cmd/nanokube.js' },
    outdir: 'dist',
    splitting: true,
    chunkNames: '[name]-[hash]',
    plugins: [split],
    define: { __NANOKUBE_BUILD__: JSON.stringify(buildInfo()) },
  }),
  // The ES build of @peculiar/x509 (its CommonJS main would re-export nothing through `export *`).
  build({
    ...common,
    entryPoints: ['dist/bundle-entries/x509.js'],
    outfile: 'dist/x509.js',
    mainFields: ['module', 'main'],
  }),
  build({
    ...common,
    entryPoints: ['dist/bundle-entries/grpc.js'],
    outfile: 'dist/grpc.js',
  }),
  build({
    ...common,
    entryPoints: ['dist/apiserver/net-thread/worker.js'],
    outfile: 'dist/net-thread.js',
  }),
]);

// V8 holds a script's source as one string, and a single non-ASCII character (esbuild keeps them
// in regular-expression literals) makes all of it two-byte: the main bundle then costs 3 MiB more
// heap and compiles slower. Write such characters as \u escapes in the source.
const bundles = readdirSync('dist').filter(
  (n) => n.endsWith('.js') && (chunk.test(n) || /^(nanokube|x509|grpc|net-thread)\.js$/.test(n)),
);
for (const file of bundles.map((n) => `dist/${n}`)) {
  const at = readFileSync(file).findIndex((b) => b > 0x7f);
  if (at >= 0) throw new Error(`${file}: non-ASCII byte at offset ${at}; use a \\u escape in the source`);
}
