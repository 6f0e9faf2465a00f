/**
 * `--admission-control-config-file` (upstream k8s.io/apiserver/pkg/admission/config.go): an
 * AdmissionConfiguration (apiserver.config.k8s.io/v1, or apiserver.k8s.io/v1alpha1) in YAML or
 * JSON whose `plugins` give each plugin's configuration inline (`configuration`) or in a file
 * (`path`, relative to this file's folder). A plugin's configuration is handed to it decoded.
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { isJsonObject } from '../util/json.js';
import type { JsonValue } from '../util/json.js';

const kinds: ReadonlySet<string> = new Set([
  'apiserver.config.k8s.io/v1/AdmissionConfiguration',
  'apiserver.k8s.io/v1alpha1/AdmissionConfiguration',
]);

/** Decodes YAML or JSON text to JSON values (YAML's own types beyond JSON are refused by the parser's options). */
function decode(text: string): JsonValue {
  return parse(text, { schema: 'core', uniqueKeys: false }) as JsonValue;
}

export interface AdmissionConfig {
  /** The named plugin's configuration, or undefined when the file names none. */
  pluginConfig(name: string): JsonValue | undefined;
}

export const emptyAdmissionConfig: AdmissionConfig = { pluginConfig: () => undefined };

/** Reads and checks the file; throws with upstream's message when it cannot be used. */
export async function readAdmissionConfig(path: string): Promise<AdmissionConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(
      `unable to read admission control configuration from "${path}" [${err instanceof Error ? err.message : String(err)}]`,
    );
  }
  let doc: JsonValue;
  try {
    doc = decode(text);
  } catch (err) {
    throw new Error(
      `unable to read admission control configuration from "${path}" [${err instanceof Error ? err.message : String(err)}]`,
    );
  }
  if (!isJsonObject(doc))
    throw new Error(`unable to read admission control configuration from "${path}" [not an object]`);
  const apiVersion = typeof doc['apiVersion'] === 'string' ? doc['apiVersion'] : '';
  const kind = typeof doc['kind'] === 'string' ? doc['kind'] : '';
  if (apiVersion === '') throw new Error(`Object 'apiVersion' is missing in '${text.trim()}'`);
  if (kind === '') throw new Error(`Object 'Kind' is missing in '${text.trim()}'`);
  if (!kinds.has(`${apiVersion}/${kind}`)) {
    throw new Error(
      `no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/admission/config.go"`,
    );
  }
  const plugins = doc['plugins'];
  if (plugins !== undefined && plugins !== null && !Array.isArray(plugins)) {
    throw new Error('plugins: must be a list of {name, path, configuration}');
  }
  const configs = new Map<string, JsonValue>();
  const base = dirname(path);
  for (const [i, entry] of (Array.isArray(plugins) ? plugins : []).entries()) {
    if (!isJsonObject(entry)) throw new Error(`plugins[${i}]: must be an object`);
    const name = typeof entry['name'] === 'string' ? entry['name'] : '';
    if (configs.has(name)) continue; // The first entry for a name wins (upstream's ConfigFor).
    if (entry['configuration'] !== undefined && entry['configuration'] !== null) {
      configs.set(name, entry['configuration']);
      continue;
    }
    const pluginPath = typeof entry['path'] === 'string' ? entry['path'] : '';
    if (pluginPath === '') continue;
    const abs = isAbsolute(pluginPath) ? pluginPath : join(base, pluginPath);
    let pluginText: string;
    try {
      pluginText = await readFile(abs, 'utf8');
    } catch (err) {
      throw new Error(
        `Couldn't open admission plugin configuration ${abs}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    configs.set(name, decode(pluginText));
  }
  return { pluginConfig: (name) => configs.get(name) };
}
