// Bundles the CLI into one ES module (dist/nanokube.js) after tsc: loading ~250 small modules
// costs Node's ESM loader more than parsing one file, and start-up time is a target (< 0.3 s).
// The native SQLite addon stays external; the x509 stack is bundled (it loads lazily, only on a
// first start, and one bundle loads ~0.1 s faster than its many files).
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/cmd/nanokube.js'],
  outfile: 'dist/nanokube.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // Less source to compile at start-up; identifiers stay readable in stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  external: ['better-sqlite3'],
  // CommonJS dependencies (yaml) call require(); give the bundle one.
  banner: {
    js: "import { createRequire as __nanokubeCreateRequire } from 'node:module';\nconst require = __nanokubeCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
