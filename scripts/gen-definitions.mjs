// Generates src/apis/generated/*.ts (declarative schemas of built-in kinds) from the reference
// OpenAPI documents of a real kube-apiserver (../shared/reference/kube-apiserver-v1.28.7).
//
//   node scripts/gen-definitions.mjs
//
// Only facts are carried over: property names, types, formats, enums, required lists, refs, the
// x-kubernetes-* extensions and default values (the latter from the v3 documents, the only place
// upstream publishes them). Descriptions are never copied.
//
// The reference server is v1.28; nanokube serves v1.27. The edits below turn the 1.28 facts into
// 1.27 ones. They were checked against kubernetes/api, kubernetes/apiextensions-apiserver and
// kubernetes/apimachinery at tag v0.27.16 (struct json tags compared with every definition).
import { readFileSync, readdirSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const refDir = resolve(root, '../shared/reference/kube-apiserver-v1.28.7');
const outDir = join(root, 'src/apis/generated');

// ---- v1.28 -> v1.27 edits -------------------------------------------------------------------

/** Definitions (exact names or prefixes ending in '.') that do not exist in v1.27. */
const dropDefinitions = [
  // admissionregistration.k8s.io/v1beta1 (ValidatingAdmissionPolicy beta) is new in 1.28.
  'io.k8s.api.admissionregistration.v1beta1.',
  // CEL variables for ValidatingAdmissionPolicy: 1.28.
  'io.k8s.api.admissionregistration.v1alpha1.Variable',
  // PodStatus.hostIPs, PodStatus.resourceClaimStatuses: 1.28.
  'io.k8s.api.core.v1.HostIP',
  'io.k8s.api.core.v1.PodResourceClaimStatus',
  // PriorityLevelConfigurationSpec.exempt: 1.28.
  'io.k8s.api.flowcontrol.v1beta2.ExemptPriorityLevelConfiguration',
  'io.k8s.api.flowcontrol.v1beta3.ExemptPriorityLevelConfiguration',
];

/** Properties added after v1.27, per definition. */
const dropFields = {
  'io.k8s.api.admissionregistration.v1alpha1.ParamRef': ['parameterNotFoundAction', 'selector'],
  'io.k8s.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicySpec': ['variables'],
  // JobBackoffLimitPerIndex, JobPodReplacementPolicy: 1.28.
  'io.k8s.api.batch.v1.JobSpec': ['backoffLimitPerIndex', 'maxFailedIndexes', 'podReplacementPolicy'],
  'io.k8s.api.batch.v1.JobStatus': ['failedIndexes', 'terminating'],
  // Sidecar containers (Container.restartPolicy): 1.28.
  'io.k8s.api.core.v1.Container': ['restartPolicy'],
  'io.k8s.api.core.v1.EphemeralContainer': ['restartPolicy'],
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus': ['allocatedResourceStatuses'],
  'io.k8s.api.core.v1.PersistentVolumeStatus': ['lastPhaseTransitionTime'],
  'io.k8s.api.core.v1.PodStatus': ['hostIPs', 'resourceClaimStatuses'],
  'io.k8s.api.flowcontrol.v1beta2.PriorityLevelConfigurationSpec': ['exempt'],
  'io.k8s.api.flowcontrol.v1beta3.PriorityLevelConfigurationSpec': ['exempt'],
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule': ['fieldPath', 'reason'],
};

/** Enum values added after v1.27: definition -> property -> values. */
const dropEnumValues = {
  'io.k8s.api.batch.v1.PodFailurePolicyRule': { action: ['FailIndex'] },
};

/** Definitions that v1.27 serves under another group-version (SelfSubjectReview is beta there). */
const renames = {
  'io.k8s.api.authentication.v1.SelfSubjectReview': 'io.k8s.api.authentication.v1beta1.SelfSubjectReview',
  'io.k8s.api.authentication.v1.SelfSubjectReviewStatus':
    'io.k8s.api.authentication.v1beta1.SelfSubjectReviewStatus',
};

/** v1.27 fields that v1.28 removed: [definition, property, v2 schema, v3 default or undefined]. */
const addFields = [
  [
    'io.k8s.api.core.v1.PersistentVolumeClaimStatus',
    'resizeStatus',
    {
      type: 'string',
      enum: [
        '',
        'ControllerExpansionFailed',
        'ControllerExpansionInProgress',
        'NodeExpansionFailed',
        'NodeExpansionInProgress',
        'NodeExpansionPending',
      ],
    },
    undefined,
  ],
  [
    'io.k8s.api.networking.v1.NetworkPolicy',
    'status',
    { $ref: '#/definitions/io.k8s.api.networking.v1.NetworkPolicyStatus' },
    {},
  ],
];

/** v1.27 definitions that v1.28 removed: name -> v2 schema. */
const addDefinitions = {
  'io.k8s.api.networking.v1.NetworkPolicyStatus': {
    type: 'object',
    properties: {
      conditions: {
        type: 'array',
        items: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Condition' },
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
      },
    },
  },
};

/** Free-form objects upstream publishes as a bare `type: object`. */
const anyObjects = new Set([
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
]);
const intOrStringName = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

// ---- load ------------------------------------------------------------------------------------

function readJson(p) {
  return JSON.parse(readFileSync(p, 'utf8'));
}

const v2 = {};
const v3 = {};
for (const variant of ['default', 'alpha-gates-on']) {
  Object.assign(v2, readJson(join(refDir, variant, 'openapi/v2.json')).definitions);
  const v3Dir = join(refDir, variant, 'openapi/v3');
  for (const f of readdirSync(v3Dir)) {
    const doc = readJson(join(v3Dir, f));
    Object.assign(v3, doc.components?.schemas ?? {});
  }
}

// ---- apply edits -----------------------------------------------------------------------------

const dropped = (name) => dropDefinitions.some((d) => (d.endsWith('.') ? name.startsWith(d) : name === d));
for (const name of Object.keys(v2)) if (dropped(name)) delete v2[name];
for (const [name, fields] of Object.entries(dropFields)) {
  for (const f of fields) {
    if (!(f in v2[name].properties)) throw new Error(`dropFields: ${name}.${f} not found`);
    delete v2[name].properties[f];
    if (v2[name].required) v2[name].required = v2[name].required.filter((r) => r !== f);
    for (const u of v2[name]['x-kubernetes-unions'] ?? []) delete u['fields-to-discriminateBy'][f];
  }
}
for (const [name, props] of Object.entries(dropEnumValues)) {
  for (const [p, values] of Object.entries(props)) {
    const s = v2[name].properties[p];
    s.enum = s.enum.filter((e) => !values.includes(e));
  }
}
for (const [name, schema] of Object.entries(addDefinitions)) v2[name] = schema;
for (const [name, prop, schema, dflt] of addFields) {
  v2[name].properties[prop] = schema;
  v2[name].properties = Object.fromEntries(Object.entries(v2[name].properties).sort(([a], [b]) => cmp(a, b)));
  if (dflt !== undefined) {
    v3[name].properties[prop] = { default: dflt };
  }
}
const renameRef = (n) => renames[n] ?? n;
for (const [from, to] of Object.entries(renames)) {
  v2[to] = v2[from];
  delete v2[from];
  v3[to] = v3[from];
  for (const g of v2[to]['x-kubernetes-group-version-kind'] ?? []) g.version = to.split('.').at(-2);
}

function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---- convert ---------------------------------------------------------------------------------

const knownKeys = new Set([
  'description',
  'type',
  'format',
  'enum',
  'items',
  'properties',
  'additionalProperties',
  'required',
  '$ref',
  'x-kubernetes-patch-strategy',
  'x-kubernetes-patch-merge-key',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-group-version-kind',
  'x-kubernetes-unions',
]);

function keyLit(k) {
  return /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
}

function lit(v) {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(lit).join(', ')}]`;
  const parts = Object.entries(v).map(([k, x]) => `${keyLit(k)}: ${lit(x)}`);
  return `{ ${parts.join(', ')} }`;
}

/** Optional trailing options argument. */
function opts(o) {
  const entries = Object.entries(o).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? '' : lit(Object.fromEntries(entries));
}

function semantics(s) {
  return {
    listType: s['x-kubernetes-list-type'],
    listMapKeys: s['x-kubernetes-list-map-keys'],
    patchStrategy: s['x-kubernetes-patch-strategy'],
    patchMergeKey: s['x-kubernetes-patch-merge-key'],
    mapType: s['x-kubernetes-map-type'],
  };
}

const refNames = new Set();

function convert(s, s3, where) {
  for (const k of Object.keys(s)) if (!knownKeys.has(k)) throw new Error(`unknown key ${k} at ${where}`);
  const dflt = s3?.default;
  if (s.$ref !== undefined) {
    const name = renameRef(s.$ref.replace('#/definitions/', ''));
    refNames.add(name);
    return `ref(${JSON.stringify(name)}${sep(opts({ ...semantics(s), default: dflt }))})`;
  }
  const sem = semantics(s);
  switch (s.type) {
    case 'string':
      return `str(${opts({ format: s.format, enum: s.enum, default: dflt, mapType: sem.mapType, listType: sem.listType })})`;
    case 'integer': {
      const fn = s.format === 'int32' ? 'int32' : s.format === 'int64' ? 'int64' : 'int';
      return `${fn}(${opts({ default: dflt })})`;
    }
    case 'number':
      return `num(${opts({ format: s.format, default: dflt })})`;
    case 'boolean':
      return `bool(${opts({ default: dflt })})`;
    case 'array':
      return `arr(${convert(s.items, s3?.items, `${where}[]`)}${sep(opts({ ...sem, default: dflt }))})`;
    case 'object': {
      if (s.properties === undefined && s.additionalProperties === undefined) {
        return anyObjects.has(where) ? `any({ asObject: true })` : `obj({}${sep(opts(sem))})`;
      }
      const extensions = s['x-kubernetes-unions']
        ? { 'x-kubernetes-unions': s['x-kubernetes-unions'] }
        : undefined;
      const extra = { ...sem, required: s.required, extensions };
      if (s.properties === undefined) {
        const values = convert(s.additionalProperties, s3?.additionalProperties, `${where}{}`);
        return `map(${values}${sep(opts(extra))})`;
      }
      if (s.additionalProperties !== undefined)
        throw new Error(`properties and additionalProperties at ${where}`);
      const props = Object.entries(s.properties).map(
        ([k, p]) => `${keyLit(k)}: ${convert(p, s3?.properties?.[k], `${where}.${k}`)}`,
      );
      return `obj({ ${props.join(', ')} }${sep(opts(extra))})`;
    }
    case undefined:
      return 'any()';
    default:
      throw new Error(`unknown type ${s.type} at ${where}`);
  }
}

function sep(s) {
  return s === '' ? '' : `, ${s}`;
}

function convertDefinition(name, s) {
  let schema;
  if (name === intOrStringName) schema = 'intOrString()';
  else schema = convert(s, v3[name], name);
  const gvk = s['x-kubernetes-group-version-kind'];
  const gvkLit = gvk ? `, ${lit(gvk.map((g) => [g.group, g.version, g.kind]))}` : '';
  return `def(${JSON.stringify(name)}, ${schema}${gvkLit})`;
}

/** File (module) name for a definition's Go package. */
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

// ---- emit ------------------------------------------------------------------------------------

const header = (what) =>
  `// Code generated by scripts/gen-definitions.mjs from reference facts (kube-apiserver OpenAPI,\n` +
  `// adjusted to v1.27). DO NOT EDIT.\n// ${what}\n`;

const modules = new Map();
for (const name of Object.keys(v2).sort(cmp)) {
  const mod = moduleOf(name);
  if (!modules.has(mod)) modules.set(mod, []);
  modules.get(mod).push(convertDefinition(name, v2[name]));
}
for (const r of refNames) if (!(r in v2)) throw new Error(`dangling ref ${r}`);

const helpers = [
  'any',
  'arr',
  'bool',
  'def',
  'int',
  'int32',
  'int64',
  'intOrString',
  'map',
  'num',
  'obj',
  'ref',
  'str',
];
mkdirSync(outDir, { recursive: true });
const prettierOptions = { ...(await prettier.resolveConfig(join(outDir, 'x.ts'))), parser: 'typescript' };
async function write(file, code) {
  const formatted = await prettier.format(code, prettierOptions);
  writeFileSync(join(outDir, file), formatted);
}
const moduleNames = [...modules.keys()].sort(cmp);
for (const mod of moduleNames) {
  const body = modules.get(mod).join(',\n');
  const used = helpers.filter((h) => new RegExp(`\\b${h}\\(`).test(body));
  await write(
    `${mod}.ts`,
    `${header(`Definitions of package ${mod}.`)}` +
      `import type { Definition } from '../schema/types.js';\n` +
      `import { ${used.join(', ')} } from '../schema/dsl.js';\n\n` +
      // A function, not a constant: the definitions are built on first use, not at start-up.
      `export function definitions(): readonly Definition[] {\n  return [\n${body}\n];\n}\n`,
  );
}
const ident = (mod) => mod.replace(/[.-](\w)/g, (_, c) => c.toUpperCase());
await write(
  'index.ts',
  `${header('All generated definitions.')}` +
    `import type { Definition } from '../schema/types.js';\n` +
    moduleNames.map((m) => `import { definitions as ${ident(m)} } from './${m}.js';\n`).join('') +
    `\nexport function allDefinitions(): readonly Definition[] {\n  return [\n${moduleNames.map((m) => `...${ident(m)}()`).join(',\n')}\n];\n}\n`,
);
if (!existsSync(outDir)) throw new Error('no output');
console.log(`wrote ${moduleNames.length} modules, ${Object.keys(v2).length} definitions to ${outDir}`);
