// Generates src/client/types/*.ts: TypeScript interfaces of every built-in definition and the
// table of typed clients, both derived from what the server itself is built from:
//
//   - one file per package (group-version), named as src/apis/generated names them (apps.v1.ts,
//     core.v1.ts, meta.v1.ts, ...): an interface per struct definition of the declarative schemas
//     (src/apis/generated, the DSL of src/apis/schema/dsl.ts), a type alias for the others;
//   - clientset.ts: every resource the server serves (cmd/serve/resources.ts, the review and
//     componentstatuses endpoints), per group and version, with its plural name, scope, kind,
//     list kind and the subresources that take and return JSON objects;
//   - index.ts: the packages as type namespaces.
//
//   npx tsx scripts/gen-client-types.mjs
//
// (tsx, because the facts are the TypeScript modules themselves.) Field names are the JSON names;
// a field is optional unless the definition's `required` lists it; int and number are `number`,
// IntOrString `number | string`, Quantity, Time and MicroTime `string` (their schemas are
// strings), RawExtension and apiextensions JSON `unknown`; string enums become unions of
// literals. Our own descriptions (src/apis/schema/descriptions) become doc comments.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { allDefinitions } from '../src/apis/generated/index.ts';
import { describeDefinition } from '../src/apis/schema/descriptions/index.ts';
import { selfSubjectReviewInfo, tokenReviewInfo } from '../src/apis/authentication/resources.ts';
import {
  localSubjectAccessReviewInfo,
  selfSubjectAccessReviewInfo,
  selfSubjectRulesReviewInfo,
  subjectAccessReviewInfo,
} from '../src/apis/authorization/resources.ts';
import { componentStatusesInfo } from '../src/cmd/serve/componentstatuses.ts';
import { servedResources } from '../src/cmd/serve/resources.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'src/client/types');

function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---- definitions -----------------------------------------------------------------------------

const definitions = new Map(allDefinitions().map((d) => [d.name, d]));

/** File (module) name for a definition's Go package, as scripts/gen-definitions.mjs names it. */
function moduleOf(name) {
  const pkg = name.slice(0, name.lastIndexOf('.'));
  const rules = [
    [/^io\.k8s\.api\.(.+)$/, '$1'],
    [/^io\.k8s\.apimachinery\.pkg\.apis\.(.+)$/, '$1'],
    [/^io\.k8s\.apimachinery\.pkg\.(.+)$/, '$1'],
    [/^io\.k8s\.apiextensions-apiserver\.pkg\.apis\.(.+)$/, '$1'],
    [/^io\.k8s\.kube-aggregator\.pkg\.apis\.(.+)$/, '$1'],
  ];
  for (const [re, to] of rules) if (re.test(pkg)) return pkg.replace(re, to);
  throw new Error(`no module for ${name}`);
}

const shortName = (name) => name.slice(name.lastIndexOf('.') + 1);
/** `core.v1` -> `coreV1`, `api.resource` -> `apiResource`. */
const ident = (mod) => mod.replace(/[.-](\w)/g, (_, c) => c.toUpperCase());

function keyLit(k) {
  return /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
}

function docComment(text) {
  if (text === undefined || text === '') return '';
  return `/** ${text.replace(/\*\//g, '*\\/')} */\n`;
}

/** The TypeScript type of a schema, as seen from module `mod` (which records its imports). */
function tsType(schema, mod, imports) {
  if ('ref' in schema) {
    const target = definitions.get(schema.ref);
    if (target === undefined) throw new Error(`dangling ref ${schema.ref}`);
    const m = moduleOf(schema.ref);
    if (m === mod) return shortName(schema.ref);
    imports.add(m);
    return `${ident(m)}.${shortName(schema.ref)}`;
  }
  switch (schema.type) {
    case 'string':
      // (Upstream lists some values twice, e.g. Service externalTrafficPolicy.)
      return schema.enum === undefined
        ? 'string'
        : [...new Set(schema.enum)].map((e) => JSON.stringify(e)).join(' | ');
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'int-or-string':
      return 'number | string';
    case 'any':
      return 'unknown';
    case 'array': {
      const item = tsType(schema.items, mod, imports);
      return /[ |]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
    }
    case 'object': {
      const empty = schema.properties === undefined || Object.keys(schema.properties).length === 0;
      if (!empty) return `{\n${fields(schema, mod, imports, undefined)}}`;
      // An empty struct (CustomResourceSubresourceStatus) is `{}` on the wire.
      if (schema.additionalProperties === undefined) return 'Record<string, never>';
      if (schema.additionalProperties === true) return 'Record<string, unknown>';
      return `Record<string, ${tsType(schema.additionalProperties, mod, imports)}>`;
    }
    default:
      throw new Error(`unknown schema type ${schema.type}`);
  }
}

function fields(schema, mod, imports, texts) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties)
    .map(
      ([k, p]) =>
        `${docComment(texts?.[k])}${keyLit(k)}${required.has(k) ? '' : '?'}: ${tsType(p, mod, imports)};\n`,
    )
    .join('');
}

function declaration(def, mod, imports) {
  const text = describeDefinition(def);
  const doc = docComment(text?.text);
  const name = shortName(def.name);
  const s = def.schema;
  if (!('ref' in s) && s.type === 'object' && Object.keys(s.properties ?? {}).length > 0) {
    return `${doc}export interface ${name} {\n${fields(s, mod, imports, text?.fields)}}\n`;
  }
  return `${doc}export type ${name} = ${tsType(s, mod, imports)};\n`;
}

// ---- served resources ------------------------------------------------------------------------

/** Every served resource version: stored ones (all their served versions) and computed ones. */
function servedInfos() {
  const infos = [];
  for (const r of servedResources()) infos.push(...(r.servedVersions?.map((v) => v.info) ?? [r.info]));
  infos.push(
    componentStatusesInfo,
    tokenReviewInfo,
    selfSubjectReviewInfo,
    localSubjectAccessReviewInfo,
    selfSubjectAccessReviewInfo,
    selfSubjectRulesReviewInfo,
    subjectAccessReviewInfo,
  );
  // core/v1 `bindings` is not here: its create answers a Status, not the Binding; it is reached as
  // the pods/binding subresource.
  return infos;
}

/** group/version/kind -> definition name (shared kinds such as DeleteOptions included). */
const byGvk = new Map();
for (const d of definitions.values())
  for (const g of d.gvk ?? []) byGvk.set(`${g.group}/${g.version}/${g.kind}`, d.name);

function definitionOf(group, version, kind) {
  const name = byGvk.get(`${group}/${version}/${kind}`);
  if (name === undefined) throw new Error(`no definition for ${group}/${version} ${kind}`);
  return name;
}

/**
 * Subresources that take and return JSON objects: name -> definition. The connect ones (log,
 * exec, attach, portforward, proxy: their kind is an *Options query, their answer a stream) are
 * left out.
 */
function subresourcesOf(info) {
  const subs = new Map();
  if (info.statusSubresource === true) subs.set('status', info.definition);
  if (info.scale !== undefined) subs.set('scale', definitionOf('autoscaling', 'v1', 'Scale'));
  for (const x of info.extraSubresources ?? []) {
    if (x.name === 'log' || x.kind?.endsWith('Options')) continue;
    const d =
      x.kind === undefined
        ? info.definition
        : definitionOf(x.group ?? info.group, x.version ?? info.version, x.kind);
    subs.set(x.name, d);
  }
  return new Map([...subs].sort(([a], [b]) => cmp(a, b)));
}

/** `rbac.authorization.k8s.io` -> `rbac`, '' -> `core`. */
const groupKey = (group) => (group === '' ? 'core' : group.split('.')[0]);

/** `persistentvolumeclaims` of PersistentVolumeClaim -> `persistentVolumeClaims`. */
function resourceKey(resource, kind) {
  const lower = kind.toLowerCase();
  let n = 0;
  while (n < resource.length && n < lower.length && resource[n] === lower[n]) n++;
  const camel = kind.slice(0, n);
  // A leading acronym is lowered whole: APIService -> apiService, CSIDriver -> csiDriver.
  const lead = /^[A-Z]+(?=[A-Z][a-z]|$)|^[A-Z]/.exec(camel)?.[0] ?? '';
  return lead.toLowerCase() + camel.slice(lead.length) + resource.slice(n);
}

// ---- emit ------------------------------------------------------------------------------------

const header = (what) =>
  `// Code generated by scripts/gen-client-types.mjs from the declarative schemas (src/apis/generated)\n` +
  `// and the served resources. DO NOT EDIT.\n// ${what}\n`;

const prettierOptions = { ...(await prettier.resolveConfig(join(outDir, 'x.ts'))), parser: 'typescript' };
const written = new Set();
async function write(file, code) {
  writeFileSync(join(outDir, file), await prettier.format(code, prettierOptions));
  written.add(file);
}

function importLines(imports, mod) {
  return [...imports]
    .filter((m) => m !== mod)
    .sort(cmp)
    .map((m) => `import type * as ${ident(m)} from './${m}.js';\n`)
    .join('');
}

mkdirSync(outDir, { recursive: true });
const modules = new Map();
for (const name of [...definitions.keys()].sort(cmp)) {
  const mod = moduleOf(name);
  if (!modules.has(mod)) modules.set(mod, []);
  modules.get(mod).push(definitions.get(name));
}
const moduleNames = [...modules.keys()].sort(cmp);
for (const mod of moduleNames) {
  const imports = new Set();
  const body = modules
    .get(mod)
    .map((d) => declaration(d, mod, imports))
    .join('\n');
  await write(`${mod}.ts`, `${header(`Types of package ${mod}.`)}${importLines(imports, mod)}\n${body}`);
}

// clientset.ts: group -> version -> resource -> make.full<T, L, S>(descriptor) or make.createOnly<T>.
const groups = new Map();
const imports = new Set();
const seen = new Set();
let resourceCount = 0;
for (const info of servedInfos()) {
  const id = `${info.group}/${info.version}/${info.resource}`;
  if (seen.has(id)) throw new Error(`resource served twice: ${id}`);
  seen.add(id);
  const typeOf = (name) => tsType({ ref: name }, 'clientset', imports);
  const listDef = `${info.definition}List`;
  const list = definitions.has(listDef) ? typeOf(listDef) : undefined;
  const subs = subresourcesOf(info);
  const descriptor = {
    group: info.group,
    version: info.version,
    resource: info.resource,
    kind: info.kind,
    ...(list !== undefined ? { listKind: `${info.kind}List` } : {}),
    namespaced: info.namespaced,
    subresources: Object.fromEntries([...subs].map(([n, d]) => [n, shortName(d)])),
  };
  const lit = JSON.stringify(descriptor);
  const subsType = `{ ${[...subs].map(([n, d]) => `${keyLit(n)}: ${typeOf(d)}`).join('; ')} }`;
  const call =
    list !== undefined
      ? `make.full<${typeOf(info.definition)}, ${list}, ${subs.size === 0 ? 'NoSubresources' : subsType}>(${lit})`
      : `make.createOnly<${typeOf(info.definition)}>(${lit})`;
  const g = groupKey(info.group);
  if (!groups.has(g)) groups.set(g, new Map());
  const versions = groups.get(g);
  if (!versions.has(info.version)) versions.set(info.version, []);
  versions.get(info.version).push([resourceKey(info.resource, info.kind), call]);
  resourceCount++;
}
const tree = [...groups]
  .sort(([a], [b]) => cmp(a, b))
  .map(([g, versions]) => {
    const vs = [...versions]
      .sort(([a], [b]) => cmp(a, b))
      .map(([v, rs]) => {
        const keys = rs.map(([k]) => k);
        if (new Set(keys).size !== keys.length) throw new Error(`duplicate resource key in ${g}/${v}`);
        const entries = rs.sort(([a], [b]) => cmp(a, b)).map(([k, c]) => `${k}: ${c},\n`);
        return `${v}: {\n${entries.join('')}},\n`;
      });
    return `${g}: {\n${vs.join('')}},\n`;
  });
await write(
  'clientset.ts',
  `${header('The typed clients of every served resource, per group and version.')}` +
    `import type { ClientMaker } from '../typed-client.js';\n` +
    `import type { NoSubresources } from '../typed-client-resource.js';\n` +
    `${importLines(imports, 'clientset')}\n` +
    `/** Builds one client per served resource with \`make\` (see typedClients in ../typed-client.ts). */\n` +
    `export function clientset(make: ClientMaker) {\n  return {\n${tree.join('')}};\n}\n`,
);

await write(
  'index.ts',
  `${header('Every package of built-in types, as a type namespace (coreV1.Pod, appsV1.Deployment, ...).')}` +
    moduleNames.map((m) => `export type * as ${ident(m)} from './${m}.js';\n`).join(''),
);

// Files of packages that no longer exist.
for (const f of readdirSync(outDir)) if (!written.has(f)) rmSync(join(outDir, f));
console.log(
  `wrote ${moduleNames.length} packages, ${definitions.size} definitions, ${resourceCount} resources to ${outDir}`,
);
