/**
 * Signs service-account tokens (upstream serviceaccount.JWTTokenGenerator): a compact JWS whose
 * protected header names the algorithm and the key ID, over the claims as JSON.
 */
import { CompactSign } from 'jose';
import type { JsonObject } from '../../util/json.js';
import type { SigningKey } from './keys.js';

export interface TokenGenerator {
  generate(claims: JsonObject): Promise<string>;
}

export function jwtTokenGenerator(key: SigningKey): TokenGenerator {
  return {
    generate: (claims) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
        .setProtectedHeader({ alg: key.alg, kid: key.kid })
        .sign(key.privateKey),
  };
}
