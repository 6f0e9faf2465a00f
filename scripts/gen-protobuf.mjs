// Generates src/apis/generated/proto/*.ts: the protobuf wire facts of every built-in message
// (field numbers, wire types, JSON names, Go pointer-ness and omitempty), joined from two upstream
// sources of one release: each package's generated.proto (numbers, proto types) and its Go structs
// (json tags and whether a field is a pointer, which decides whether gogo-protobuf always writes it).
//
// Usage: node scripts/gen-protobuf.mjs <dir with api/ apimachinery/ apiextensions-apiserver/ kube-aggregator/> [release]
// (source trees of k8s.io/api etc. at v0.27.x, e.g. `git archive v0.27.16` of each staging repo).
import { readFileSync, readdirSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

const root = process.argv[2];
if (root === undefined) {
  console.error('usage: node scripts/gen-protobuf.mjs <source root>');
  process.exit(2);
}
const outDir = new URL('../src/apis/generated/proto/', import.meta.url).pathname;

/** Package directories (relative to root), their API group and the output file. */
const packages = [
  ['apimachinery/pkg/apis/meta/v1', 'meta.k8s.io', 'meta.v1'],
  ['apimachinery/pkg/runtime', null, 'runtime'],
  ['apimachinery/pkg/api/resource', null, 'api.resource'],
  ['apimachinery/pkg/util/intstr', null, 'util.intstr'],
  ['api/core/v1', '', 'core.v1'],
  ['api/admissionregistration/v1', 'admissionregistration.k8s.io', 'admissionregistration.v1'],
  ['api/admissionregistration/v1alpha1', 'admissionregistration.k8s.io', 'admissionregistration.v1alpha1'],
  ['api/apps/v1', 'apps', 'apps.v1'],
  ['api/authentication/v1', 'authentication.k8s.io', 'authentication.v1'],
  ['api/authentication/v1beta1', 'authentication.k8s.io', 'authentication.v1beta1'],
  ['api/authorization/v1', 'authorization.k8s.io', 'authorization.v1'],
  ['api/autoscaling/v1', 'autoscaling', 'autoscaling.v1'],
  ['api/autoscaling/v2', 'autoscaling', 'autoscaling.v2'],
  ['api/batch/v1', 'batch', 'batch.v1'],
  ['api/certificates/v1', 'certificates.k8s.io', 'certificates.v1'],
  ['api/certificates/v1alpha1', 'certificates.k8s.io', 'certificates.v1alpha1'],
  ['api/coordination/v1', 'coordination.k8s.io', 'coordination.v1'],
  ['api/discovery/v1', 'discovery.k8s.io', 'discovery.v1'],
  ['api/events/v1', 'events.k8s.io', 'events.v1'],
  ['api/flowcontrol/v1beta2', 'flowcontrol.apiserver.k8s.io', 'flowcontrol.v1beta2'],
  ['api/flowcontrol/v1beta3', 'flowcontrol.apiserver.k8s.io', 'flowcontrol.v1beta3'],
  ['api/networking/v1', 'networking.k8s.io', 'networking.v1'],
  ['api/networking/v1alpha1', 'networking.k8s.io', 'networking.v1alpha1'],
  ['api/node/v1', 'node.k8s.io', 'node.v1'],
  ['api/policy/v1', 'policy', 'policy.v1'],
  ['api/rbac/v1', 'rbac.authorization.k8s.io', 'rbac.v1'],
  ['api/resource/v1alpha2', 'resource.k8s.io', 'resource.v1alpha2'],
  ['api/scheduling/v1', 'scheduling.k8s.io', 'scheduling.v1'],
  ['api/storage/v1', 'storage.k8s.io', 'storage.v1'],
  ['api/apidiscovery/v2beta1', 'apidiscovery.k8s.io', 'apidiscovery.v2beta1'],
  ['apiextensions-apiserver/pkg/apis/apiextensions/v1', 'apiextensions.k8s.io', 'apiextensions.v1'],
  ['kube-aggregator/pkg/apis/apiregistration/v1', 'apiregistration.k8s.io', 'apiregistration.v1'],
];

const scalars = new Set(['string', 'bytes', 'int32', 'int64', 'bool', 'double']);

/** Messages of one generated.proto: name → fields {number, label, type, mapKey?, mapValue?}. */
function parseProto(text) {
  const pkg = /^package ([\w.]+);/m.exec(text)[1];
  const messages = new Map();
  const qualify = (t) => (scalars.has(t) || t.includes('.') ? t : `${pkg}.${t}`);
  const re = /^message (\w+) \{([\s\S]*?)^\}/gm;
  for (const m of text.matchAll(re)) {
    const fields = [];
    for (const line of m[2].split('\n')) {
      const t = line.replace(/\/\/.*$/, '').trim();
      let f = /^(optional|repeated|required) ([\w.]+) (\w+) = (\d+);/.exec(t);
      if (f) {
        fields.push({ number: Number(f[4]), name: f[3], label: f[1], type: qualify(f[2]) });
        continue;
      }
      f = /^map<([\w.]+), ([\w.]+)> (\w+) = (\d+);/.exec(t);
      if (f) fields.push({ number: Number(f[4]), name: f[3], label: 'map', type: qualify(f[2]), key: f[1] });
    }
    messages.set(m[1], fields);
  }
  return { pkg, messages };
}

/** Go structs of a package: name → fields by protobuf number {json, omitempty, inline, pointer}. */
const parsedStructs = [];
function parseGoStructs(dir) {
  const structs = new Map();
  const aliases = new Map();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.go') || file.endsWith('_test.go') || file.startsWith('zz_generated')) continue;
    if (file === 'generated.pb.go') continue;
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
      const fields = new Map();
      for (const line of m[2].split('\n')) {
        const t = line.trim();
        if (t.startsWith('//')) continue;
        const tag = /`(.*)`/.exec(t);
        if (!tag) continue;
        const pb = /protobuf:"(\w+),(\d+),(\w+)[^"]*"/.exec(tag[1]);
        if (!pb) continue;
        const json = /json:"([^"]*)"/.exec(tag[1]);
        const jsonParts = (json ? json[1] : '').split(',');
        const decl = t.slice(0, tag.index).trim().split(/\s+/);
        const goType = decl.length >= 2 ? decl[1] : decl[0];
        fields.set(Number(pb[2]), {
          order: fields.size,
          json: jsonParts[0],
          omitempty: jsonParts.includes('omitempty'),
          inline: jsonParts.includes('inline') && jsonParts[0] === '',
          pointer: goType.startsWith('*'),
        });
      }
      structs.set(m[1], fields);
    }
    // `type MatchCondition v1.MatchCondition`: the same fields as a struct of another package.
    for (const m of text.matchAll(/^type (\w+) (\w+)\.(\w+)$/gm)) aliases.set(m[1], m[3]);
  }
  for (const [name, target] of aliases) {
    if (structs.has(name)) continue;
    const found = parsedStructs.find((s) => s.has(target));
    if (found !== undefined) structs.set(name, found.get(target));
  }
  parsedStructs.push(structs);
  return structs;
}

/** Messages whose Go type is not a plain struct: the codec maps their JSON by hand. */
const custom = new Set([
  'k8s.io.apimachinery.pkg.apis.meta.v1.Time',
  'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Duration',
  'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Verbs',
  'k8s.io.apimachinery.pkg.api.resource.Quantity',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
  'k8s.io.apimachinery.pkg.runtime.RawExtension',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
]);
const isCustomOrList = (full, shortName) =>
  custom.has(full) || shortName === 'ExtraValue' || shortName === 'Timestamp';

function flagsOf(f, go) {
  let flags = '';
  if (f.label === 'repeated') flags += 'r';
  if (f.label === 'map') flags += 'k';
  if (go?.pointer) flags += 'p';
  if (go?.omitempty) flags += 'o';
  if (go?.inline) flags += 'i';
  return flags;
}

/** The release the trees are from (third argument; v0.27.16 is what was used). */
const version = process.argv[3] ?? 'v0.27.16';

mkdirSync(outDir, { recursive: true });
const index = [];
const problems = [];
for (const [dir, group, out] of packages) {
  const full = join(root, dir);
  if (!existsSync(join(full, 'generated.proto'))) throw new Error(`no generated.proto in ${full}`);
  const { pkg, messages } = parseProto(readFileSync(join(full, 'generated.proto'), 'utf8'));
  const structs = parseGoStructs(full);
  const lines = [];
  for (const [name, fields] of [...messages].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const fullName = `${pkg}.${name}`;
    // A Go helper type for tests only (a Quantity in a struct), never on the wire.
    if (fullName === 'k8s.io.apimachinery.pkg.api.resource.QuantityValue') continue;
    const go = structs.get(name);
    if (go === undefined && fields.length > 0 && !isCustomOrList(fullName, name)) {
      problems.push(`${fullName}: no Go struct`);
    }
    // Rows in Go declaration order: the order encoding/json writes them (the codec sorts by number
    // for the wire).
    const declared = (f) => go?.get(f.number)?.order ?? f.number;
    const rows = [...fields]
      .sort((a, b) => declared(a) - declared(b) || a.number - b.number)
      .map((f) => {
        const g = go?.get(f.number);
        if (go !== undefined && g === undefined && !custom.has(fullName)) {
          problems.push(`${fullName}.${f.name}: no Go field with number ${f.number}`);
        }
        const json = g === undefined ? f.name : g.json;
        const type = f.label === 'map' ? `map<${f.key},${f.type}>` : f.type;
        return `[${f.number}, ${JSON.stringify(json)}, ${JSON.stringify(type)}, ${JSON.stringify(flagsOf(f, g))}]`;
      });
    lines.push(`  [${JSON.stringify(fullName)}, [${rows.join(', ')}]],`);
  }
  const ident = out.replace(/\.(\w)/g, (_, c) => c.toUpperCase()).replace(/\./g, '');
  const groupVersion =
    group === null
      ? 'undefined'
      : JSON.stringify(group === '' ? dir.split('/').pop() : `${group}/${dir.split('/').pop()}`);
  const text = `// Code generated by scripts/gen-protobuf.mjs from ${dir}/generated.proto and its Go types
// (${version}). DO NOT EDIT.
// Each field, in Go declaration order: [number, JSON name ("" when inlined in JSON), proto type,
// flags]; flags: r repeated,
// k map, p Go pointer (written only when set), o omitempty in JSON, i inlined in JSON.
import type { ProtoPackage } from '../../../machinery/protobuf/descriptor.js';

// A function, so that the table is built only when protobuf is first spoken.
export function ${ident}(): ProtoPackage {
  return {
    package: ${JSON.stringify(pkg)},
    groupVersion: ${groupVersion},
    messages: [
${lines.join('\n')}
    ],
  };
}
`;
  writeFileSync(join(outDir, `${out}.ts`), text);
  index.push([out, ident]);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
const indexText = `// Code generated by scripts/gen-protobuf.mjs. DO NOT EDIT.
import type { ProtoPackage } from '../../../machinery/protobuf/descriptor.js';
${index.map(([out, ident]) => `import { ${ident} } from './${out}.js';`).join('\n')}

/** Every package's table, built on first use. */
export const protoPackages: readonly (() => ProtoPackage)[] = [
${index.map(([, ident]) => `  ${ident},`).join('\n')}
];
`;
writeFileSync(join(outDir, 'index.ts'), indexText);
execFileSync('npx', ['prettier', '--write', outDir], { stdio: 'ignore' });
console.log(`wrote ${index.length} packages to ${outDir}`);
