// Layering check (docs/ARCHITECTURE.md): fails when a file imports a layer it may not.
// Run by `npm run lint`. Rules follow ../shared/docs/architecture.md:
//  - apiserver/ never touches storage/; registry/ never imports admission/ (it arrives as a callback);
//  - controllers/, proxy/ and nodes/ reach the cluster only through client/;
//  - lower layers never import higher ones; util/ knows nothing of Kubernetes;
//  - sibling feature folders (registry/resources/<group>) do not import each other.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve('src');
/** What each top-level folder of src/ may import (besides itself). */
const allowed = {
  cmd: ['*'],
  apiserver: ['registry', 'auth', 'apis', 'machinery', 'util'],
  registry: ['storage', 'cel', 'apis', 'machinery', 'util'],
  admission: ['cel', 'apis', 'machinery', 'util'],
  auth: ['apis', 'machinery', 'util'],
  cel: ['apis', 'machinery', 'util'],
  storage: ['machinery', 'util'],
  apis: ['machinery', 'util'],
  machinery: ['apis', 'util'],
  allocators: ['util'],
  client: ['apis', 'machinery', 'util'],
  controllers: ['client', 'apis', 'machinery', 'util'],
  proxy: ['client', 'apis', 'machinery', 'util'],
  nodes: ['client', 'apis', 'machinery', 'util'],
  util: [],
  cluster: ['*'],
  'index.ts': ['*'],
};

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const problems = [];
for (const file of walk(root, [])) {
  const rel = relative(root, file);
  const layer = rel.split('/')[0];
  const rules = allowed[layer];
  if (rules === undefined) {
    problems.push(`${rel}: folder src/${layer} has no layer rule (add it to scripts/check-layers.mjs)`);
    continue;
  }
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
    const target = relative(root, resolve(dirname(file), m[1]));
    if (target.startsWith('..')) {
      problems.push(`${rel}: imports ${m[1]} outside src/`);
      continue;
    }
    const targetLayer = target.split('/')[0];
    if (targetLayer !== layer && !rules.includes('*') && !rules.includes(targetLayer)) {
      problems.push(`${rel}: ${layer}/ may not import ${targetLayer}/ (${m[1]})`);
    }
    const sib = /^registry\/resources\/([^/]+)\//;
    const a = sib.exec(rel);
    const b = sib.exec(target);
    if (a && b && a[1] !== b[1])
      problems.push(`${rel}: sibling feature folder import of registry/resources/${b[1]}`);
  }
}
if (problems.length > 0) {
  process.stderr.write(`Layering check failed:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('Layering check passed.\n');
