import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeHash, fnv32a, safeEncodeString } from './hash.js';
import { quantityFields, spewPodTemplateSpec } from './spew.js';

test('fnv32a: the published FNV-1a 32-bit vectors', () => {
  assert.equal(fnv32a(Buffer.from('')), 0x811c9dc5);
  assert.equal(fnv32a(Buffer.from('a')), 0xe40c292c);
  assert.equal(fnv32a(Buffer.from('foobar')), 0xbf9cf968);
});

test('safeEncodeString maps each character to alphanums[code % 27]', () => {
  // '0' is 48 → 48 % 27 = 21 → '4'; '9' is 57 → 3 → 'f'.
  assert.equal(safeEncodeString('0'), '4');
  assert.equal(safeEncodeString('9'), 'f');
  assert.equal(safeEncodeString('1234567890'), '56789bcdf4');
});

const template = {
  metadata: { creationTimestamp: null, labels: { b: '2', a: '1' } },
  spec: {
    containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] }],
    terminationGracePeriodSeconds: 30,
    securityContext: {},
  },
};

test('spew %#v: types in parentheses, nil collections, sorted map keys, pointers', () => {
  const s = spewPodTemplateSpec(template);
  assert.ok(
    s.startsWith('(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){Name:(string) GenerateName:(string) '),
  );
  assert.ok(
    s.includes(
      'CreationTimestamp:(v1.Time){Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}}',
    ),
  );
  assert.ok(s.includes('Labels:(map[string]string)map[a:1 b:2] Annotations:(map[string]string)<nil>'));
  assert.ok(
    s.includes('Containers:([]v1.Container)[{Name:(string)c Image:(string)nginx Command:([]string)<nil>'),
  );
  assert.ok(
    s.includes(
      'Ports:([]v1.ContainerPort)[{Name:(string) HostPort:(int32)0 ContainerPort:(int32)80 Protocol:(v1.Protocol)TCP HostIP:(string)}]',
    ),
  );
  assert.ok(s.includes('TerminationGracePeriodSeconds:(*int64)30 ActiveDeadlineSeconds:(*int64)<nil>'));
  assert.ok(s.includes('SecurityContext:(*v1.PodSecurityContext){SELinuxOptions:(*v1.SELinuxOptions)<nil>'));
  assert.ok(
    s.endsWith('SchedulingGates:([]v1.PodSchedulingGate)<nil> ResourceClaims:([]v1.PodResourceClaim)<nil>}}'),
  );
  // Empty lists and maps are nil, as after protobuf decoding.
  assert.equal(
    spewPodTemplateSpec({ ...template, metadata: { labels: {} } }).includes(
      'Labels:(map[string]string)<nil>',
    ),
    true,
  );
});

test('resource.Quantity prints its fields as ParseQuantity fills them', () => {
  assert.deepEqual(quantityFields('500m'), {
    value: '500',
    scale: -3,
    dec: '(*inf.Dec)<nil>',
    s: '500m',
    format: 'DecimalSI',
  });
  assert.deepEqual(quantityFields('1Gi'), {
    value: String(2 ** 30),
    scale: 0,
    dec: '(*inf.Dec)<nil>',
    s: '1Gi',
    format: 'BinarySI',
  });
  // 128 & 7 == 0: the text is not kept.
  assert.equal(quantityFields('128Mi').s, '');
  assert.equal(quantityFields('1000').s, '');
  assert.equal(quantityFields('0').s, '0');
});

test('computeHash: deterministic, changes with the template and the collision count', () => {
  const h = computeHash(template);
  assert.match(h, /^[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
  assert.equal(computeHash(structuredClone(template)), h);
  assert.notEqual(computeHash(template, 1), h);
  assert.notEqual(computeHash(template, 0), h);
  assert.notEqual(computeHash({ ...template, metadata: { labels: { a: '1' } } }), h);
  // Key order in the JSON does not matter.
  assert.equal(computeHash({ spec: template.spec, metadata: { labels: { a: '1', b: '2' } } }), h);
});
