/** Issuer discovery documents and key loading as upstream. */
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { KeyError, signingKeyFromPem, verificationKeysFromPem } from './keys.js';
import { OpenIDMetadataError, openIDMetadata } from './openid-metadata.js';

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

test('keys: the algorithm follows the key; public halves, public keys and several blocks load', () => {
  assert.equal(signingKeyFromPem(ec, 'ec').alg, 'ES256');
  assert.equal(signingKeyFromPem(rsa, 'rsa').alg, 'RS256');
  const pub = createPublicKey(ec).export({ type: 'spki', format: 'pem' }).toString();
  const keys = verificationKeysFromPem(`${pub}${rsa}`, 'f');
  assert.deepEqual(
    keys.map((k) => k.alg),
    ['ES256', 'RS256'],
  );
  assert.equal(keys[0]!.kid, signingKeyFromPem(ec, 'ec').kid);
  assert.throws(() => verificationKeysFromPem('nothing', '/f.pem'), KeyError);
});

test('the configuration and JWKS documents, as go-jose and upstream write them', () => {
  const keys = [signingKeyFromPem(ec, 'ec'), signingKeyFromPem(rsa, 'rsa')];
  const docs = openIDMetadata({ issuer: 'https://issuer.example', externalAddress: '10.0.0.1:6443', keys });
  assert.deepEqual(JSON.parse(docs.configuration), {
    issuer: 'https://issuer.example',
    jwks_uri: 'https://10.0.0.1:6443/openid/v1/jwks',
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256', 'RS256'],
  });
  const jwks = JSON.parse(docs.jwks) as { keys: Record<string, string>[] };
  assert.deepEqual(Object.keys(jwks.keys[0]!), ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
  assert.deepEqual(Object.keys(jwks.keys[1]!), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
  const custom = openIDMetadata({
    issuer: 'https://i',
    jwksURI: 'https://cdn/keys',
    externalAddress: 'x',
    keys,
  });
  assert.equal((JSON.parse(custom.configuration) as Record<string, string>)['jwks_uri'], 'https://cdn/keys');
});

test('an issuer that is not an https URL has no discovery documents', () => {
  const keys = [signingKeyFromPem(ec, 'ec')];
  assert.throws(
    () => openIDMetadata({ issuer: 'kubernetes/serviceaccount', externalAddress: 'x', keys }),
    OpenIDMetadataError,
  );
  assert.throws(
    () => openIDMetadata({ issuer: 'http://issuer', externalAddress: 'x', keys }),
    new OpenIDMetadataError('issuer URL must use https scheme, got: http://issuer'),
  );
});
