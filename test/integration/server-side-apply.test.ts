/**
 * Server-side apply, table-driven: each scenario is a sequence of writes (apply with a field
 * manager and maybe force, or create/update/patch attributed to a manager) on a real server, then
 * the object's fields and its managedFields, per manager (manager/operation[/subresource]) as the
 * field paths it owns, as kube-apiserver v1.27 records them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FieldSet } from '../../src/machinery/fieldpath/set.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

type Obj = Record<string, unknown>;
interface Step {
  readonly op:
    | 'apply'
    | 'create'
    | 'update'
    | 'merge'
    | 'json'
    | 'strategic'
    | 'applyStatus'
    | 'updateStatus'
    | 'scale'
    | 'applyScale';
  readonly manager?: string;
  readonly body: unknown;
  readonly force?: boolean;
  readonly dryRun?: boolean;
  /** Expected HTTP status (default: 200/201). */
  readonly status?: number;
  /** Conflicts expected in a 409, as `<field>` paths of the causes. */
  readonly conflicts?: readonly string[];
  readonly message?: RegExp;
  readonly userAgent?: string;
}
interface Scenario {
  readonly name: string;
  readonly resource: 'configmaps' | 'deployments' | 'services' | 'pods' | 'secrets';
  readonly steps: readonly Step[];
  /** Fields of the final object (a subset compare of each given path's value). */
  readonly object?: Readonly<Record<string, unknown>>;
  /** Every manager entry and the paths it owns; entries not listed must not exist. */
  readonly managed?: Readonly<Record<string, readonly string[]>>;
}

const ns = 'ssa';
const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';
/** The annotation kubectl's client-side apply writes (the manifest's JSON, a final newline). */
const lastAppliedOf = (name: string, data: Record<string, string>): string =>
  `${JSON.stringify({ apiVersion: 'v1', data, kind: 'ConfigMap', metadata: { annotations: {}, name, namespace: ns } })}\n`;
const paths: Record<Scenario['resource'], { api: string; kind: string }> = {
  configmaps: { api: 'v1', kind: 'ConfigMap' },
  secrets: { api: 'v1', kind: 'Secret' },
  services: { api: 'v1', kind: 'Service' },
  pods: { api: 'v1', kind: 'Pod' },
  deployments: { api: 'apps/v1', kind: 'Deployment' },
};
const collection = (r: Scenario['resource']): string =>
  paths[r].api === 'v1' ? `/api/v1/namespaces/${ns}/${r}` : `/apis/${paths[r].api}/namespaces/${ns}/${r}`;

const cm = (name: string, data?: Obj, extra: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  ...(data !== undefined ? { data } : {}),
});
const dep = (name: string, spec: Obj, meta: Obj = {}): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, ...meta },
  spec: { selector: { matchLabels: { app: name } }, ...spec },
});
const podSpec = (containers: unknown[], extra: Obj = {}): Obj => ({ containers, ...extra });
const tmpl = (name: string, containers: unknown[]): Obj => ({
  template: { metadata: { labels: { app: name } }, spec: podSpec(containers) },
});
const svc = (name: string, ports: unknown[], extra: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { ports, ...extra },
});
const pod = (name: string, containers: unknown[], meta: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...meta },
  spec: { containers },
});
const c = (name: string, image: string, extra: Obj = {}): Obj => ({ name, image, ...extra });
const depPaths = (name: string): string[] => [
  '.spec.selector',
  '.spec.template.metadata.labels.app',
  `.spec.template.spec.containers[name="${name}"]`,
  `.spec.template.spec.containers[name="${name}"].image`,
  `.spec.template.spec.containers[name="${name}"].name`,
];

const scenarios: Scenario[] = [
  // ---- create and update by apply
  {
    name: 'apply creates the object (201) and the applier owns what it applied',
    resource: 'configmaps',
    steps: [{ op: 'apply', manager: 'a', body: cm('s1', { x: '1' }) }],
    object: { data: { x: '1' } },
    managed: { 'a/Apply': ['.data.x'] },
  },
  {
    name: 're-applying the same configuration changes nothing',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('s2', { x: '1' }) },
      { op: 'apply', manager: 'a', body: cm('s2', { x: '1' }) },
    ],
    managed: { 'a/Apply': ['.data.x'] },
  },
  {
    name: 'apply adds and changes fields it owns',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('s3', { x: '1' }) },
      { op: 'apply', manager: 'a', body: cm('s3', { x: '2', y: '3' }) },
    ],
    object: { data: { x: '2', y: '3' } },
    managed: { 'a/Apply': ['.data.x', '.data.y'] },
  },
  {
    name: 'a field the applier stops applying is removed',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('s4', { x: '1', y: '2' }) },
      { op: 'apply', manager: 'a', body: cm('s4', { x: '1' }) },
    ],
    object: { data: { x: '1' } },
    managed: { 'a/Apply': ['.data.x'] },
  },
  {
    name: 'a field the applier stops applying stays when another applier also applies it',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('s5', { x: '1', y: '2' }) },
      { op: 'apply', manager: 'b', body: cm('s5', { y: '2' }) },
      { op: 'apply', manager: 'a', body: cm('s5', { x: '1' }) },
    ],
    object: { data: { x: '1', y: '2' } },
    managed: { 'a/Apply': ['.data.x'], 'b/Apply': ['.data.y'] },
  },
  {
    name: 'two appliers with the same value share a field without conflict',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('s6', { x: '1' }) },
      { op: 'apply', manager: 'b', body: cm('s6', { x: '1' }) },
    ],
    managed: { 'a/Apply': ['.data.x'], 'b/Apply': ['.data.x'] },
  },
  {
    name: 'a different value owned by another applier is a 409 conflict naming it',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('s7', { x: '1' }) },
      {
        op: 'apply',
        manager: 'b',
        body: cm('s7', { x: '2' }),
        status: 409,
        conflicts: ['.data.x'],
        message: /^Apply failed with 1 conflict: conflict with "a": \.data\.x$/,
      },
    ],
    object: { data: { x: '1' } },
    managed: { 'a/Apply': ['.data.x'] },
  },
  {
    name: 'force takes the field from the other applier',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('s8', { x: '1', y: '1' }) },
      { op: 'apply', manager: 'b', body: cm('s8', { x: '2' }), force: true },
    ],
    object: { data: { x: '2', y: '1' } },
    managed: { 'a/Apply': ['.data.y'], 'b/Apply': ['.data.x'] },
  },
  {
    name: 'force leaves a manager with nothing out of managedFields',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('s9', { x: '1' }) },
      { op: 'apply', manager: 'b', body: cm('s9', { x: '2' }), force: true },
    ],
    managed: { 'b/Apply': ['.data.x'] },
  },
  {
    name: 'after a forced takeover the previous applier dropping the field does not remove it',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('s10', { x: '1', y: '1' }) },
      { op: 'apply', manager: 'b', body: cm('s10', { x: '2' }), force: true },
      { op: 'apply', manager: 'a', body: cm('s10', { y: '1' }) },
    ],
    object: { data: { x: '2', y: '1' } },
    managed: { 'a/Apply': ['.data.y'], 'b/Apply': ['.data.x'] },
  },
  // ---- Update managers
  {
    name: 'create records an Update manager from fieldManager',
    resource: 'configmaps',
    steps: [{ op: 'create', manager: 'maker', body: cm('u1', { x: '1' }, { labels: { l: 'v' } }) }],
    managed: { 'maker/Update': ['.data', '.data.x', '.metadata.labels', '.metadata.labels.l'] },
  },
  {
    name: 'without fieldManager the manager is the user agent up to its first "/"',
    resource: 'configmaps',
    steps: [{ op: 'create', userAgent: 'my-tool/v1.2.3 (linux/amd64)', body: cm('u2', { x: '1' }) }],
    managed: { 'my-tool/Update': ['.data', '.data.x'] },
  },
  {
    name: 'an update owns what it changed; the others lose it',
    resource: 'configmaps',
    steps: [
      { op: 'create', manager: 'maker', body: cm('u3', { x: '1', y: '1' }) },
      { op: 'merge', manager: 'editor', body: { data: { x: '2' } } },
    ],
    managed: { 'maker/Update': ['.data', '.data.y'], 'editor/Update': ['.data.x'] },
  },
  {
    name: 'an update that changes nothing records nothing',
    resource: 'configmaps',
    steps: [
      { op: 'create', manager: 'maker', body: cm('u4', { x: '1' }) },
      { op: 'merge', manager: 'editor', body: { data: { x: '1' } } },
    ],
    managed: { 'maker/Update': ['.data', '.data.x'] },
  },
  {
    name: 'a removed field leaves every manager',
    resource: 'configmaps',
    steps: [
      { op: 'create', manager: 'maker', body: cm('u5', { x: '1', y: '1' }) },
      { op: 'json', manager: 'editor', body: [{ op: 'remove', path: '/data/y' }] },
    ],
    object: { data: { x: '1' } },
    managed: { 'maker/Update': ['.data', '.data.x'] },
  },
  {
    name: 'apply over a field an Update manager owns is a conflict naming it with its version',
    resource: 'configmaps',
    steps: [
      { op: 'create', manager: 'maker', body: cm('u6', { x: '1' }) },
      {
        op: 'apply',
        manager: 'a',
        body: cm('u6', { x: '2' }),
        status: 409,
        conflicts: ['.data.x'],
        message: /^Apply failed with 1 conflict: conflict with "maker" using v1: \.data\.x$/,
      },
    ],
  },
  {
    name: 'an Update manager may change a field an applier owns (no conflicts for updates)',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('u7', { x: '1' }) },
      { op: 'merge', manager: 'editor', body: { data: { x: '9' } } },
    ],
    object: { data: { x: '9' } },
    managed: { 'editor/Update': ['.data.x'] },
  },
  {
    name: 'apply after such an update conflicts with the updater',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('u8', { x: '1' }) },
      { op: 'merge', manager: 'editor', body: { data: { x: '9' } } },
      { op: 'apply', manager: 'a', body: cm('u8', { x: '1' }), status: 409, conflicts: ['.data.x'] },
    ],
  },
  {
    name: 'two updates by one manager merge into one entry',
    resource: 'configmaps',
    steps: [
      { op: 'create', manager: 'maker', body: cm('u9', { x: '1' }) },
      { op: 'merge', manager: 'editor', body: { data: { y: '1' } } },
      { op: 'merge', manager: 'editor', body: { data: { z: '1' } } },
    ],
    managed: { 'maker/Update': ['.data', '.data.x'], 'editor/Update': ['.data.y', '.data.z'] },
  },
  {
    name: 'PUT with managedFields [] resets them: the object is no longer tracked',
    resource: 'configmaps',
    steps: [
      { op: 'create', manager: 'maker', body: cm('u10', { x: '1' }) },
      { op: 'update', manager: 'editor', body: cm('u10', { x: '2' }, { managedFields: [] }) },
    ],
    managed: {},
  },
  {
    name: 'the first apply to an untracked object gives its fields to before-first-apply',
    resource: 'configmaps',
    steps: [
      { op: 'create', manager: 'maker', body: cm('u11', { x: '1', y: '1' }) },
      { op: 'update', manager: 'editor', body: cm('u11', { x: '1', y: '1' }, { managedFields: [] }) },
      { op: 'apply', manager: 'a', body: cm('u11', { x: '1' }) },
    ],
    managed: { 'a/Apply': ['.data.x'], 'before-first-apply/Update': ['.data', '.data.x', '.data.y'] },
  },
  {
    name: 'a reordering alone is no change: the live order stays (compare ignores order)',
    resource: 'deployments',
    steps: [
      { op: 'apply', manager: 'a', body: dep('d7', tmpl('d7', [c('one', 'x'), c('two', 'y')])) },
      { op: 'apply', manager: 'a', body: dep('d7', tmpl('d7', [c('two', 'y'), c('one', 'x')])) },
    ],
    object: {
      'spec.template.spec.containers': [
        { name: 'one', image: 'x' },
        { name: 'two', image: 'y' },
      ],
    },
  },
  // ---- granular and atomic structures
  {
    name: 'list-map items are merged by key: each applier owns its container',
    resource: 'deployments',
    steps: [
      { op: 'apply', manager: 'a', body: dep('d1', { replicas: 1, ...tmpl('d1', [c('one', 'img:1')]) }) },
      { op: 'apply', manager: 'b', body: dep('d1', tmpl('d1', [c('two', 'img:2')])) },
    ],
    object: {
      'spec.template.spec.containers': [
        { name: 'one', image: 'img:1' },
        { name: 'two', image: 'img:2' },
      ],
    },
    managed: {
      'a/Apply': ['.spec.replicas', ...depPaths('one')],
      'b/Apply': depPaths('two'),
    },
  },
  {
    name: 'an applier dropping its container removes only that item',
    resource: 'deployments',
    steps: [
      { op: 'apply', manager: 'a', body: dep('d2', tmpl('d2', [c('one', 'x'), c('two', 'y')])) },
      { op: 'apply', manager: 'a', body: dep('d2', tmpl('d2', [c('two', 'y')])) },
    ],
    object: { 'spec.template.spec.containers': [{ name: 'two', image: 'y' }] },
  },
  {
    name: 'applied item order wins for the items it names (when the apply changes something)',
    resource: 'deployments',
    steps: [
      { op: 'apply', manager: 'a', body: dep('d3', tmpl('d3', [c('one', 'x'), c('two', 'y')])) },
      { op: 'apply', manager: 'a', body: dep('d3', tmpl('d3', [c('two', 'y2'), c('one', 'x')])) },
    ],
    object: {
      'spec.template.spec.containers': [
        { name: 'two', image: 'y2' },
        { name: 'one', image: 'x' },
      ],
    },
  },
  {
    name: 'an atomic list (args) is replaced whole and owned as one field',
    resource: 'deployments',
    steps: [
      { op: 'apply', manager: 'a', body: dep('d4', tmpl('d4', [c('one', 'x', { args: ['a', 'b'] })])) },
      {
        op: 'apply',
        manager: 'b',
        body: dep('d4', tmpl('d4', [c('one', 'x', { args: ['c'] })])),
        force: true,
      },
    ],
    object: { 'spec.template.spec.containers': [{ name: 'one', image: 'x', args: ['c'] }] },
    managed: {
      'a/Apply': depPaths('one')
        .filter((p) => !p.endsWith('.image'))
        .concat(['.spec.template.spec.containers[name="one"].image']),
      'b/Apply': [...depPaths('one'), '.spec.template.spec.containers[name="one"].args'],
    },
  },
  {
    name: 'an atomic struct (selector) conflicts as a whole',
    resource: 'deployments',
    steps: [
      { op: 'apply', manager: 'a', body: dep('d5', tmpl('d5', [c('one', 'x')])) },
      {
        op: 'apply',
        manager: 'b',
        body: { ...dep('d5', {}), spec: { selector: { matchLabels: { app: 'd5', extra: 'y' } } } },
        status: 409,
        conflicts: ['.spec.selector'],
      },
    ],
  },
  {
    name: 'a granular map (labels) is shared entry by entry',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('g1', undefined, { labels: { a: '1' } }) },
      { op: 'apply', manager: 'b', body: cm('g1', undefined, { labels: { b: '2' } }) },
    ],
    object: { 'metadata.labels': { a: '1', b: '2' } },
    managed: { 'a/Apply': ['.metadata.labels.a'], 'b/Apply': ['.metadata.labels.b'] },
  },
  {
    name: 'a set list (finalizers) is owned value by value',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('g2', undefined, { finalizers: ['x.io/a'] }) },
      { op: 'apply', manager: 'b', body: cm('g2', undefined, { finalizers: ['x.io/b'] }) },
    ],
    object: { 'metadata.finalizers': ['x.io/a', 'x.io/b'] },
    managed: {
      'a/Apply': ['.metadata.finalizers[="x.io/a"]'],
      'b/Apply': ['.metadata.finalizers[="x.io/b"]'],
    },
  },
  {
    name: 'list-map keys may be defaulted: container ports keyed by containerPort and protocol TCP',
    resource: 'pods',
    steps: [
      { op: 'apply', manager: 'a', body: pod('p1', [c('web', 'nginx', { ports: [{ containerPort: 80 }] })]) },
    ],
    managed: {
      'a/Apply': [
        '.spec.containers[name="web"]',
        '.spec.containers[name="web"].image',
        '.spec.containers[name="web"].name',
        '.spec.containers[name="web"].ports[containerPort=80,protocol="TCP"]',
        '.spec.containers[name="web"].ports[containerPort=80,protocol="TCP"].containerPort',
      ],
    },
  },
  {
    name: 'service ports merge by port and protocol; int-or-string targetPort is a scalar',
    resource: 'services',
    steps: [
      { op: 'apply', manager: 'a', body: svc('v1', [{ name: 'http', port: 80, targetPort: 'web' }]) },
      { op: 'apply', manager: 'b', body: svc('v1', [{ name: 'https', port: 443, targetPort: 8443 }]) },
    ],
    object: {
      'spec.ports': [
        { name: 'http', port: 80, protocol: 'TCP', targetPort: 'web' },
        { name: 'https', port: 443, protocol: 'TCP', targetPort: 8443 },
      ],
    },
  },
  {
    name: 'duplicate list-map keys in an apply are a 500 naming the path (v1.27)',
    resource: 'deployments',
    steps: [
      {
        op: 'apply',
        manager: 'a',
        body: dep('d6', tmpl('d6', [c('one', 'x'), c('one', 'y')])),
        status: 500,
        message:
          /failed to create typed patch object \(\/d6; apps\/v1, Kind=Deployment\): \.spec\.template\.spec\.containers: duplicate entries for key \[name="one"\]/,
      },
    ],
  },
  {
    name: 'an unknown field in an apply is a 500: field not declared in schema',
    resource: 'configmaps',
    steps: [
      {
        op: 'apply',
        manager: 'a',
        body: { ...cm('e1'), spec: { x: 1 } },
        status: 500,
        message: /\.spec: field not declared in schema/,
      },
    ],
  },
  {
    name: 'a write to /scale records its manager on the parent with subresource scale, owning the replicas',
    resource: 'deployments',
    steps: [
      { op: 'apply', manager: 'a', body: dep('sc1', { replicas: 1, ...tmpl('sc1', [c('one', 'x')]) }) },
      { op: 'scale', manager: 'scaler', body: { spec: { replicas: 4 } } },
    ],
    object: { 'spec.replicas': 4 },
    managed: { 'a/Apply': depPaths('one'), 'scaler/Update/scale': ['.spec.replicas'] },
  },
  {
    name: "apply of a Scale: the parent's replicas, conflicting with their owner, then forced (subresource scale)",
    resource: 'deployments',
    steps: [
      { op: 'apply', manager: 'a', body: dep('sc2', { replicas: 1, ...tmpl('sc2', [c('one', 'x')]) }) },
      {
        op: 'applyScale',
        manager: 'hpa',
        body: {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: 'sc2' },
          spec: { replicas: 3 },
        },
        status: 409,
        conflicts: ['.spec.replicas'],
        message: /^Apply failed with 1 conflict: conflict with "a": \.spec\.replicas$/,
      },
      {
        op: 'applyScale',
        manager: 'hpa',
        force: true,
        body: {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: 'sc2' },
          spec: { replicas: 3 },
        },
      },
    ],
    object: { 'spec.replicas': 3 },
    managed: { 'a/Apply': depPaths('one'), 'hpa/Apply/scale': ['.spec.replicas'] },
  },
  {
    name: 'apply of a Scale in another version is a 400',
    resource: 'deployments',
    steps: [
      { op: 'apply', manager: 'a', body: dep('sc3', tmpl('sc3', [c('one', 'x')])) },
      {
        op: 'applyScale',
        manager: 'hpa',
        body: { apiVersion: 'apps/v1', kind: 'Scale', metadata: { name: 'sc3' }, spec: { replicas: 3 } },
        status: 400,
        message:
          /^Incorrect version specified in apply patch\. Specified patch version: apps\/v1, expected: autoscaling\/v1$/,
      },
    ],
  },
  // ---- client-side apply migration (kubectl's last-applied-configuration)
  {
    name: 'kubectl apply over a client-side applied object takes fields still equal to the last applied',
    resource: 'configmaps',
    steps: [
      {
        op: 'create',
        manager: 'kubectl-client-side-apply',
        body: cm(
          'm1',
          { x: '1', y: '1' },
          { annotations: { [lastApplied]: lastAppliedOf('m1', { x: '1', y: '1' }) } },
        ),
      },
      { op: 'apply', manager: 'kubectl', body: cm('m1', { x: '2', y: '1' }) },
    ],
    object: { data: { x: '2', y: '1' } },
    managed: {
      'kubectl/Apply': ['.data.x', '.data.y'],
      'kubectl-client-side-apply/Update': [
        '.data',
        '.data.y',
        `.metadata.annotations`,
        `.metadata.annotations.${lastApplied}`,
      ],
    },
  },
  {
    name: "kubectl's apply keeps the last-applied annotation in step with what it applies",
    resource: 'configmaps',
    steps: [
      {
        op: 'create',
        manager: 'kubectl-client-side-apply',
        body: cm('m2', { x: '1' }, { annotations: { [lastApplied]: lastAppliedOf('m2', { x: '1' }) } }),
      },
      { op: 'apply', manager: 'kubectl', body: cm('m2', { x: '2' }) },
    ],
    object: {
      [`metadata.annotations`]: {
        [lastApplied]: '{"apiVersion":"v1","data":{"x":"2"},"kind":"ConfigMap","metadata":{"name":"m2"}}\n',
      },
    },
  },
  {
    name: 'a field changed since the client-side apply still conflicts for kubectl',
    resource: 'configmaps',
    steps: [
      {
        op: 'create',
        manager: 'kubectl-client-side-apply',
        body: cm('m3', { x: '1' }, { annotations: { [lastApplied]: lastAppliedOf('m3', { x: '1' }) } }),
      },
      { op: 'merge', manager: 'kubectl-edit', body: { data: { x: 'edited' } } },
      { op: 'apply', manager: 'kubectl', body: cm('m3', { x: '2' }), status: 409, conflicts: ['.data.x'] },
    ],
  },
  {
    name: "a JSON patch replacing managedFields (kubectl's csaupgrade) becomes the tracked state",
    resource: 'configmaps',
    steps: [
      { op: 'create', manager: 'kubectl-client-side-apply', body: cm('m4', { x: '1' }) },
      {
        op: 'json',
        manager: 'kubectl',
        body: [
          {
            op: 'replace',
            path: '/metadata/managedFields',
            value: [
              {
                manager: 'kubectl',
                operation: 'Apply',
                apiVersion: 'v1',
                fieldsType: 'FieldsV1',
                fieldsV1: { 'f:data': { 'f:x': {} } },
              },
            ],
          },
        ],
      },
      { op: 'apply', manager: 'kubectl', body: cm('m4', { y: '1' }) },
    ],
    object: { data: { y: '1' } },
    managed: { 'kubectl/Apply': ['.data.y'] },
  },
  // ---- request checks
  {
    name: 'apply without fieldManager is a 422 on PatchOptions',
    resource: 'configmaps',
    steps: [
      {
        op: 'apply',
        body: cm('e2'),
        status: 422,
        message:
          /^PatchOptions\.meta\.k8s\.io "" is invalid: fieldManager: Required value: is required for apply patch$/,
      },
    ],
  },
  {
    name: 'force on a non-apply patch is a 422',
    resource: 'configmaps',
    steps: [
      { op: 'create', manager: 'm', body: cm('e3') },
      {
        op: 'merge',
        manager: 'm',
        force: true,
        body: { data: { x: '1' } },
        status: 422,
        message: /force: Forbidden: may not be specified for non-apply patch/,
      },
    ],
  },
  {
    name: 'a fieldManager over 128 bytes is a 422',
    resource: 'configmaps',
    steps: [
      {
        op: 'create',
        manager: 'm'.repeat(129),
        body: cm('e4'),
        status: 422,
        message:
          /^CreateOptions\.meta\.k8s\.io "" is invalid: fieldManager: Too long: must have at most 128 bytes$/,
      },
    ],
  },
  {
    name: 'an apply of another apiVersion is a 400',
    resource: 'configmaps',
    steps: [
      {
        op: 'apply',
        manager: 'a',
        body: { ...cm('e5'), apiVersion: 'v2' },
        status: 400,
        message: /^Incorrect version specified in apply patch\. Specified patch version: v2, expected: v1$/,
      },
    ],
  },
  {
    name: 'managedFields in an applied configuration are a 400',
    resource: 'configmaps',
    steps: [
      {
        op: 'apply',
        manager: 'a',
        body: cm('e6', {}, { managedFields: [] }),
        status: 400,
        message: /^metadata\.managedFields must be nil$/,
      },
    ],
  },
  {
    name: 'apply with dryRun returns the result and stores nothing',
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'a', body: cm('e7', { x: '1' }) },
      { op: 'apply', manager: 'a', body: cm('e7', { x: '2' }), dryRun: true },
    ],
    object: { data: { x: '1' } },
    managed: { 'a/Apply': ['.data.x'] },
  },
  // ---- subresources and reset fields
  {
    name: 'apply on /status: owned with subresource status; spec in it is ignored',
    resource: 'deployments',
    steps: [
      { op: 'apply', manager: 'a', body: dep('r1', { replicas: 1, ...tmpl('r1', [c('one', 'x')]) }) },
      {
        op: 'applyStatus',
        manager: 'ctl',
        body: { ...dep('r1', { replicas: 5 }), status: { observedGeneration: 7 } },
      },
    ],
    object: { 'spec.replicas': 1, 'status.observedGeneration': 7 },
    managed: {
      'a/Apply': ['.spec.replicas', ...depPaths('one')],
      'ctl/Apply/status': ['.status.observedGeneration'],
    },
  },
  {
    name: 'status in a main-resource apply is not owned (reset field)',
    resource: 'deployments',
    steps: [
      {
        op: 'apply',
        manager: 'a',
        body: { ...dep('r2', tmpl('r2', [c('one', 'x')])), status: { observedGeneration: 3 } },
      },
    ],
    managed: { 'a/Apply': depPaths('one') },
  },
  {
    name: 'a status update records an Update entry with subresource status',
    resource: 'deployments',
    steps: [
      { op: 'apply', manager: 'a', body: dep('r3', tmpl('r3', [c('one', 'x')])) },
      { op: 'updateStatus', manager: 'ctl', body: { status: { observedGeneration: 2 } } },
    ],
    managed: { 'a/Apply': depPaths('one'), 'ctl/Update/status': ['.status.observedGeneration'] },
  },
];

let server: TestServer;

before(async () => {
  server = await startTestServer({ controllers: false });
  const r = await server.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
  });
  assert.equal(r.status, 201, r.text);
});
after(async () => {
  await server?.stop();
});

function nameOf(body: unknown, fallback: string): string {
  const m = (body as { metadata?: { name?: string } }).metadata;
  return m?.name ?? fallback;
}

function query(step: Step): string {
  const q = new URLSearchParams();
  if (step.manager !== undefined) q.set('fieldManager', step.manager);
  if (step.force === true) q.set('force', 'true');
  if (step.dryRun === true) q.set('dryRun', 'All');
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}

function at(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const k of path.split('.')) cur = (cur as Obj | undefined)?.[k];
  return cur;
}

function managedOf(obj: Obj): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const entries = ((obj['metadata'] as Obj)['managedFields'] as Obj[] | undefined) ?? [];
  for (const e of entries) {
    const entry = e as { manager: string; operation: string; subresource?: string };
    const key = `${entry.manager}/${entry.operation}${entry.subresource !== undefined ? `/${entry.subresource}` : ''}`;
    assert.equal(e['fieldsType'], 'FieldsV1');
    out[key] = FieldSet.fromFieldsV1(e['fieldsV1'])
      .toString()
      .split('\n')
      .filter((s) => s !== '');
  }
  return out;
}

describe('#9 server-side apply scenarios (kube-apiserver v1.27 semantics)', () => {
  it('has at least 40 scenarios', () => {
    assert.ok(scenarios.length >= 40, `${scenarios.length} scenarios`);
  });
  for (const sc of scenarios) {
    it(sc.name, async () => {
      const base = collection(sc.resource);
      let name = '';
      for (const [i, step] of sc.steps.entries()) {
        if (name === '') name = nameOf(step.body, '');
        const q = query(step);
        const headers = step.userAgent !== undefined ? { 'user-agent': step.userAgent } : undefined;
        let r;
        switch (step.op) {
          case 'create':
            r = await server.request('POST', `${base}${q}`, {
              body: step.body,
              ...(headers ? { headers } : {}),
            });
            break;
          case 'update': {
            const cur = JSON.parse((await server.request('GET', `${base}/${name}`)).text) as Obj;
            const body = step.body as Obj;
            const meta = {
              ...(body['metadata'] as Obj),
              resourceVersion: (cur['metadata'] as Obj)['resourceVersion'],
            };
            r = await server.request('PUT', `${base}/${name}${q}`, { body: { ...body, metadata: meta } });
            break;
          }
          case 'updateStatus': {
            const cur = JSON.parse((await server.request('GET', `${base}/${name}`)).text) as Obj;
            r = await server.request('PUT', `${base}/${name}/status${q}`, {
              body: { ...cur, ...(step.body as Obj) },
            });
            break;
          }
          case 'merge':
          case 'json':
          case 'strategic':
            r = await server.request('PATCH', `${base}/${name}${q}`, {
              body: step.body,
              contentType: `application/${step.op === 'json' ? 'json-patch' : step.op === 'merge' ? 'merge-patch' : 'strategic-merge-patch'}+json`,
            });
            break;
          case 'scale':
            r = await server.request('PATCH', `${base}/${name}/scale${q}`, {
              body: step.body,
              contentType: 'application/merge-patch+json',
            });
            break;
          case 'applyScale':
            r = await server.request('PATCH', `${base}/${name}/scale${q}`, {
              raw: JSON.stringify(step.body),
              contentType: 'application/apply-patch+yaml',
            });
            break;
          case 'apply':
          case 'applyStatus':
            r = await server.request(
              'PATCH',
              `${base}/${name}${step.op === 'applyStatus' ? '/status' : ''}${q}`,
              {
                raw: JSON.stringify(step.body),
                contentType: 'application/apply-patch+yaml',
              },
            );
            break;
        }
        const expected = step.status;
        if (expected !== undefined) {
          assert.equal(r.status, expected, `step ${i}: ${r.text}`);
          const status = JSON.parse(r.text) as {
            message: string;
            reason?: string;
            details?: { causes?: { reason: string; field: string }[] };
          };
          if (step.message !== undefined) assert.match(status.message, step.message);
          if (step.conflicts !== undefined) {
            assert.equal(status.reason, 'Conflict');
            assert.deepEqual(
              status.details?.causes?.map((x) => [x.reason, x.field]),
              step.conflicts.map((f) => ['FieldManagerConflict', f]),
            );
          }
        } else {
          assert.ok(r.status === 200 || r.status === 201, `step ${i}: ${r.status} ${r.text}`);
          if (step.op === 'apply' && i === 0)
            assert.equal(r.status, 201, 'an apply that creates answers 201');
        }
      }
      const got = await server.request('GET', `${base}/${name}`);
      if (sc.object === undefined && sc.managed === undefined) return;
      assert.equal(got.status, 200, got.text);
      const obj = JSON.parse(got.text) as Obj;
      for (const [path, want] of Object.entries(sc.object ?? {})) {
        const have = at(obj, path);
        if (Array.isArray(want)) {
          assert.equal((have as unknown[]).length, want.length, path);
          want.forEach((w, k) => {
            for (const [f, v] of Object.entries(w as Obj))
              assert.deepEqual((have as Obj[])[k]![f], v, `${path}[${k}].${f}`);
          });
        } else assert.deepEqual(have, want, path);
      }
      if (sc.managed !== undefined) {
        const have = managedOf(obj);
        const want = Object.fromEntries(Object.entries(sc.managed).map(([k, v]) => [k, [...v].sort()]));
        const sorted = Object.fromEntries(Object.entries(have).map(([k, v]) => [k, [...v].sort()]));
        assert.deepEqual(sorted, want);
      }
    });
  }
});

describe('server-side apply over a stored list-map with duplicate keys', () => {
  it('is refused with the field manager plain 500, as v1.27 (no AllowDuplicates yet); update still works', async () => {
    const deployment = (ports: { containerPort: number }[]): Obj => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'dup-ports' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: {
          metadata: { labels: { a: 'b' } },
          spec: { containers: [{ name: 'c', image: 'i', ports }] },
        },
      },
    });
    const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const created = await server.request('POST', path, {
      body: deployment([{ containerPort: 80 }, { containerPort: 80 }]),
    });
    assert.equal(created.status, 201, created.text);
    const applied = await server.request('PATCH', `${path}/dup-ports?fieldManager=a`, {
      body: deployment([{ containerPort: 81 }]),
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(applied.status, 500, applied.text);
    assert.deepEqual(applied.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'failed to create typed live object (ssa/dup-ports; apps/v1, Kind=Deployment): ' +
        '.spec.template.spec.containers[name="c"].ports: duplicate entries for key [containerPort=80,protocol="TCP"]',
      code: 500,
    });
    const got = await server.request('GET', `${path}/dup-ports`);
    const updated = await server.request('PUT', `${path}/dup-ports`, {
      body: { ...got.json(), ...deployment([{ containerPort: 81 }]), metadata: got.json<Obj>()['metadata'] },
    });
    assert.equal(updated.status, 200, updated.text);
  });
});
