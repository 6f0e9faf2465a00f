import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { StatusError } from '../machinery/errors.js';
import { isPrettyPrint, negotiateError, negotiateObject, parseAccept } from './negotiate.js';

test('kubectl get asks for a Table first and falls back to JSON', () => {
  const n = negotiateObject(
    'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
  );
  assert.equal(n.as, 'table');
  assert.equal(n.asVersion, 'v1');
});

test('plain, wildcard, YAML and metadata-only requests', () => {
  assert.equal(negotiateObject(undefined).format, 'json');
  assert.equal(negotiateObject('*/*').as, 'object');
  assert.equal(negotiateObject('application/yaml').format, 'yaml');
  assert.equal(negotiateObject('application/vnd.kubernetes.protobuf, */*').format, 'protobuf');
  assert.equal(negotiateObject('application/vnd.kubernetes.protobuf, */*', false).format, 'json');
  assert.equal(
    negotiateObject('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, application/json').as,
    'object',
  );
  assert.equal(
    negotiateObject('application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;v=v1;g=meta.k8s.io').format,
    'protobuf',
  );
  assert.equal(
    negotiateObject('application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io').as,
    'metadata',
  );
});

test('errors take the first accepted type without a conversion (ErrorNegotiated)', () => {
  assert.equal(negotiateError('application/vnd.kubernetes.protobuf, application/json'), 'protobuf');
  assert.equal(negotiateError('application/json;as=Table;v=v1;g=meta.k8s.io,application/json'), 'json');
  assert.equal(negotiateError('application/yaml'), 'yaml');
  assert.equal(negotiateError('text/html'), 'json');
});

test('nothing acceptable is 406', () => {
  assert.throws(
    () => negotiateObject('text/html'),
    (e: unknown) => e instanceof StatusError && e.code === 406,
  );
  assert.throws(
    () => negotiateObject('application/json;as=Table;v=v2;g=meta.k8s.io'),
    (e: unknown) => e instanceof StatusError && e.code === 406,
  );
});

describe('isPrettyPrint (negotiation/negotiate.go)', () => {
  const req = (url: string, headers: Record<string, string> = {}) => ({ url, headers });
  it('the User-Agent prefixes upstream names', () => {
    assert.equal(isPrettyPrint(req('/api', { 'user-agent': 'curl/8.5.0' })), true);
    assert.equal(isPrettyPrint(req('/api', { 'user-agent': 'Wget/1.21.4' })), true);
    assert.equal(isPrettyPrint(req('/api', { 'user-agent': 'Mozilla/5.0 (X11; Linux)' })), true);
    assert.equal(isPrettyPrint(req('/api', { 'user-agent': 'wget/1.21' })), false);
    assert.equal(isPrettyPrint(req('/api', { 'user-agent': 'kubectl/v1.27.16 (linux/amd64)' })), false);
  });
  it('a non-empty pretty parameter wins, read as strconv.ParseBool', () => {
    assert.equal(isPrettyPrint(req('/api?pretty=true')), true);
    assert.equal(isPrettyPrint(req('/api?pretty=T')), true);
    assert.equal(isPrettyPrint(req('/api?pretty=0', { 'user-agent': 'curl/8' })), false);
    assert.equal(isPrettyPrint(req('/api?pretty=on', { 'user-agent': 'curl/8' })), false);
    assert.equal(isPrettyPrint(req('/api?pretty', { 'user-agent': 'curl/8' })), true);
  });
  it('pretty=1 on the accepted JSON media type', () => {
    assert.equal(isPrettyPrint(req('/api', { accept: 'application/json;pretty=1' })), true);
    assert.equal(isPrettyPrint(req('/api', { accept: 'application/json;pretty=true' })), false);
  });
});

test('parseAccept keeps what it parsed per header text, and stays right past its bound', () => {
  const header = 'application/yaml;q=0.5, application/json';
  const first = parseAccept(header);
  assert.equal(parseAccept(header), first, 'the same parse is handed out again');
  assert.deepEqual(
    first.map((m) => [m.type, m.q]),
    [
      ['application/json', 1],
      ['application/yaml', 0.5],
    ],
  );
  for (let i = 0; i < 600; i++) {
    const [m] = parseAccept(`application/x-${i};q=0.${(i % 9) + 1}`);
    assert.equal(m?.type, `application/x-${i}`);
  }
  assert.deepEqual(
    parseAccept(header).map((m) => m.type),
    ['application/json', 'application/yaml'],
  );
});
