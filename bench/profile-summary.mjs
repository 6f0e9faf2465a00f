#!/usr/bin/env node
// Summarizes a V8 CPU profile (`node --cpu-prof`, e.g. `bench/vs-upstream.mjs --profile DIR`):
// self time by source file and by function, the bundle's positions mapped back to src/ through
// its source maps (node:module's SourceMap, no dependency), by area (the top directory under
// src/, node's internals, garbage collection, idle), and total time by function (each sample
// counted once for every function on its stack).
//
//   node bench/profile-summary.mjs FILE.cpuprofile [--top N] [--json]
//   node bench/profile-summary.mjs FILE.cpuprofile --tree NAME [--depth D] [--min MS]
//
// --tree prints, instead, what the functions whose mapped name starts with NAME spent their time
// in: their callees D levels deep (default 4), merged by name, each with its total time.
import { readFileSync, existsSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

function parseArgs(argv) {
  const o = { file: '', top: 25, json: false, tree: undefined, depth: 4, min: 10 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--top') o.top = Number(argv[++i]);
    else if (a === '--json') o.json = true;
    else if (a === '--tree') o.tree = argv[++i];
    else if (a === '--depth') o.depth = Number(argv[++i]);
    else if (a === '--min') o.min = Number(argv[++i]);
    else if (o.file === '') o.file = a;
    else throw new Error(`unexpected ${a}`);
  }
  if (o.file === '') throw new Error('usage: profile-summary.mjs FILE.cpuprofile [--top N] [--json]');
  return o;
}

const maps = new Map();
/** The source map of a dist/ file (undefined when it has none). */
function mapOf(url) {
  if (maps.has(url)) return maps.get(url);
  let map;
  try {
    const path = url.startsWith('file://') ? fileURLToPath(url) : url;
    if (existsSync(`${path}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
  } catch {
    map = undefined;
  }
  maps.set(url, map);
  return map;
}

/** Where a profile node's function is: { file, name } with src/ paths where a source map says. */
function placeOf(frame) {
  const { url, functionName, lineNumber, columnNumber } = frame;
  const name = functionName || '(anonymous)';
  if (!url) return { file: name.startsWith('(') ? name : '(native)', name };
  if (url.startsWith('node:')) return { file: url, name };
  const map = mapOf(url);
  if (map !== undefined) {
    const entry = map.findEntry(lineNumber, columnNumber);
    if (entry?.originalSource) {
      const src = entry.originalSource
        .replace(/^.*?\/src\//, 'src/')
        .replace(/^.*node_modules\//, 'node_modules/');
      return { file: src, name: `${name} (${src}:${(entry.originalLine ?? 0) + 1})` };
    }
  }
  const short = url.replace(/^file:\/\/.*?\/(dist|node_modules)\//, '$1/');
  return { file: short, name: `${name} (${short}:${lineNumber + 1})` };
}

/** The area of a file: src/<dir>, a package, node's internals, or V8's pseudo-frames. */
function areaOf(file) {
  if (file.startsWith('src/')) return file.split('/').slice(0, 2).join('/');
  if (file.startsWith('node_modules/')) {
    const parts = file.split('/');
    return parts[1]?.startsWith('@') ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
  }
  if (file.startsWith('node:')) return 'node: (internals)';
  return file;
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  const profile = JSON.parse(readFileSync(o.file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // Self time per node from the samples and their time deltas (microseconds).
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  let total = 0;
  const files = new Map();
  const functions = new Map();
  const areas = new Map();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (node === undefined) continue;
    total += us;
    const { file, name } = placeOf(node.callFrame);
    files.set(file, (files.get(file) ?? 0) + us);
    functions.set(name, (functions.get(name) ?? 0) + us);
    const area = areaOf(file);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  // Inclusive time: each sample counts once for every distinct function on its stack.
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const names = new Map();
  const nameOf = (id) => {
    let name = names.get(id);
    if (name === undefined) {
      name = placeOf(byId.get(id).callFrame).name;
      names.set(id, name);
    }
    return name;
  };
  const inclusive = new Map();
  for (const [id, us] of self) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const name = nameOf(at);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    }
  }
  if (o.tree !== undefined) {
    printTree({ profile, byId, self, nameOf, prefix: o.tree, depth: o.depth, minMs: o.min });
    return;
  }
  const idle = files.get('(idle)') ?? 0;
  const busy = total - idle;
  const top = (m, n) =>
    [...m]
      .filter(([k]) => k !== '(idle)' && k !== '(root)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => ({ what: k, ms: Math.round(us / 1000), share: Math.round((1000 * us) / busy) / 10 }));
  const summary = {
    file: o.file,
    totalMs: Math.round(total / 1000),
    busyMs: Math.round(busy / 1000),
    idleMs: Math.round(idle / 1000),
    areas: top(areas, o.top),
    files: top(files, o.top),
    functions: top(functions, o.top),
    inclusive: top(inclusive, o.top * 2),
  };
  if (o.json) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return;
  }
  const table = (title, rows) =>
    `\n${title}\n| ms | % of busy | |\n| ---: | ---: | --- |\n${rows.map((r) => `| ${r.ms} | ${r.share} | ${r.what} |`).join('\n')}\n`;
  process.stdout.write(
    `${o.file}: ${summary.totalMs} ms sampled, ${summary.busyMs} ms busy (not idle)\n` +
      table('Self time by area', summary.areas) +
      table('Self time by file', summary.files) +
      table('Self time by function', summary.functions) +
      table('Total time by function (itself and what it calls)', summary.inclusive),
  );
}

/** The callees of every node named `prefix…` (outermost only), merged by name, `depth` levels. */
function printTree({ profile, byId, self, nameOf, prefix, depth, minMs }) {
  const totals = new Map();
  const totalOf = (id) => {
    let t = totals.get(id);
    if (t !== undefined) return t;
    t = self.get(id) ?? 0;
    for (const c of byId.get(id).children ?? []) t += totalOf(c);
    totals.set(id, t);
    return t;
  };
  const roots = [];
  const walk = (id) => {
    if (nameOf(id).startsWith(prefix)) roots.push(id);
    else for (const c of byId.get(id).children ?? []) walk(c);
  };
  walk(profile.nodes[0].id);
  const ms = (us) => Math.round(us / 1000);
  process.stdout.write(
    `${prefix}: ${ms(roots.reduce((a, id) => a + totalOf(id), 0))} ms in ${roots.length} stacks\n`,
  );
  const level = (ids, left, indent) => {
    const merged = new Map();
    for (const id of ids) {
      for (const c of byId.get(id).children ?? []) {
        const name = nameOf(c);
        merged.set(name, [...(merged.get(name) ?? []), c]);
      }
    }
    const rows = [...merged]
      .map(([name, cs]) => ({ name, cs, us: cs.reduce((a, c) => a + totalOf(c), 0) }))
      .filter((r) => ms(r.us) >= minMs)
      .sort((a, b) => b.us - a.us);
    for (const r of rows) {
      process.stdout.write(`${indent}${String(ms(r.us)).padStart(6)}  ${r.name}\n`);
      if (left > 1) level(r.cs, left - 1, `${indent}  `);
    }
  };
  level(roots, depth, '');
}

main();
