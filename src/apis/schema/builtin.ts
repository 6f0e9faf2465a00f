/** The registry of every built-in kind's schema, built on first use. */
import { allDefinitions } from '../generated/index.js';
import { createSchemaRegistry } from './registry.js';
import type { SchemaRegistry } from './types.js';

let cached: SchemaRegistry | undefined;

export function builtinSchemas(): SchemaRegistry {
  cached ??= createSchemaRegistry(allDefinitions());
  return cached;
}
