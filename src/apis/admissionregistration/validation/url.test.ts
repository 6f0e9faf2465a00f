import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FieldPath } from '../../../machinery/field/errors.js';
import { parseGoURL, userinfoString } from './url.js';
import { validateWebhookService, validateWebhookURL } from './webhooks.js';

const urlErrors = (u: string): string[] => validateWebhookURL(u, FieldPath.root('url')).map(String);

test('Go url.Parse: scheme, host, user, query and fragment', () => {
  assert.deepEqual(parseGoURL('HTTPS://u:p%40ss@h.example.com:8443/a%2Fb?x=1#f%20g'), {
    scheme: 'https',
    opaque: '',
    user: { username: 'u', password: 'p@ss' },
    host: 'h.example.com:8443',
    path: '/a/b',
    rawQuery: 'x=1',
    fragment: 'f g',
  });
  const opaque = parseGoURL('https:example.com');
  assert.ok(!('error' in opaque) && opaque.opaque === 'example.com' && opaque.host === '');
  assert.equal(userinfoString({ username: 'a b', password: 'c:d' }), 'a%20b:c%3Ad');
});

test('Go url.Parse errors read as Go prints them', () => {
  const cases: [string, string][] = [
    ['://x', 'parse "://x": missing protocol scheme'],
    ['https://h ost/', 'parse "https://h ost/": invalid character " " in host name'],
    ['https://host:x/', 'parse "https://host:x/": invalid port ":x" after host'],
    ['https://[::1/', `parse "https://[::1/": missing ']' in host`],
    ['https://host/%zz', 'parse "https://host/%zz": invalid URL escape "%zz"'],
    ['https://host/\n', 'parse "https://host/\\n": net/url: invalid control character in URL'],
    ['https://us er@host/', 'parse "https://us er@host/": net/url: invalid userinfo'],
    ['https://host/#%zz', 'parse "https://host/#%zz": invalid URL escape "%zz"'],
  ];
  for (const [raw, want] of cases) {
    assert.deepEqual(parseGoURL(raw), { error: want }, raw);
  }
  // "a:b/c" has a scheme ("a"), so Go takes "b/c" as opaque; "1a" cannot start a scheme.
  assert.ok(!('error' in parseGoURL('a:b/c')));
  assert.deepEqual(parseGoURL('1a:b'), {
    error: 'parse "1a:b": first path segment in URL cannot contain colon',
  });
});

test('ValidateWebhookURL: https only, a host, no user, fragment or query', () => {
  assert.deepEqual(urlErrors('https://hooks.example.com/validate'), []);
  assert.deepEqual(urlErrors(''), [
    `url: Invalid value: "": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
    'url: Invalid value: "": host must be provided; desired format: https://host[/path]',
  ]);
  assert.deepEqual(urlErrors('https://a:b@h/?#'), [
    'url: Invalid value: "a:b": user information is not permitted in the URL',
  ]);
  assert.deepEqual(urlErrors('://x'), [
    'url: Required value: url must be a valid URL: parse "://x": missing protocol scheme; desired format: https://host[/path]',
  ]);
});

test('ValidateWebhookService: upstream swaps name and namespace; port; path segments', () => {
  const errs = (s: Record<string, unknown>): string[] =>
    validateWebhookService(s as never, FieldPath.root('service')).map(String);
  assert.deepEqual(errs({ name: 'h', namespace: 'ns', port: 443, path: '/a/b/' }), []);
  assert.deepEqual(errs({ port: 443 }), [
    'service.name: Required value: service name is required',
    'service.namespace: Required value: service namespace is required',
  ]);
  assert.deepEqual(errs({ name: 'h', port: 443 }), [
    'service.name: Required value: service name is required',
  ]);
  assert.deepEqual(errs({ name: 'h', namespace: 'ns', port: 70000, path: '//' }), [
    'service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    'service.path: Invalid value: "//": segment[0] may not be empty',
  ]);
  assert.deepEqual(errs({ name: 'h', namespace: 'ns', port: 1, path: '/a//B_' }), [
    'service.path: Invalid value: "/a//B_": segment[1] may not be empty',
    `service.path: Invalid value: "/a//B_": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ]);
});
