// Why a module is loaded at start: the chain of static imports from the CLI's entry (after `npm run
// build`, over dist/) to the first module whose path contains each argument, or "not loaded at
// start" when only dynamic imports reach it. Keeps lazily loaded engines (CEL, RE2, x509) lazy.
//
//   node scripts/why-loaded.mjs @bufbuild/cel/ re2js
import { build } from 'esbuild';

const result = await build({
  entryPoints: ['dist/cmd/nanokube.js'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  splitting: true,
  outdir: 'dist/.why-loaded',
  write: false,
  metafile: true,
  external: ['better-sqlite3'],
  logLevel: 'error',
});
const inputs = result.metafile.inputs;
const entry = 'dist/cmd/nanokube.js';
// Breadth first over static imports: the first chain found is a shortest one.
const via = new Map([[entry, undefined]]);
const queue = [entry];
while (queue.length > 0) {
  const file = queue.shift();
  for (const imp of inputs[file]?.imports ?? []) {
    if (imp.kind !== 'import-statement' && imp.kind !== 'require-call') continue;
    if (!via.has(imp.path)) {
      via.set(imp.path, file);
      queue.push(imp.path);
    }
  }
}
let loaded = 0;
for (const target of process.argv.slice(2)) {
  const hit = [...via.keys()].find((k) => k.includes(target));
  if (hit === undefined) {
    process.stdout.write(`${target}: not loaded at start\n`);
    continue;
  }
  loaded++;
  const chain = [];
  for (let at = hit; at !== undefined; at = via.get(at)) chain.unshift(at);
  process.stdout.write(`${target}:\n  ${chain.join('\n  -> ')}\n`);
}
process.exitCode = loaded > 0 ? 1 : 0;
