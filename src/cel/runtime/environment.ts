// The Kubernetes v1.27 CEL function environment (apiserver pkg/cel/library/libraries.go
// ExtensionLibs and apiextensions-apiserver compilation.go's base env): the CEL standard library
// (@bufbuild/cel's, UTC as default time zone, with cel-go's conversions), the strings extension as cel-go v0.12.7 has it,
// and the Kubernetes lists, regex (plus `matches` on RE2), urls and authz libraries.
import { celEnv, type CelEnv, type CelFunc } from '@bufbuild/cel';
import { authzLibrary } from '../library/authz.js';
import { conversionsLibrary } from '../library/conversions.js';
import { listsLibrary } from '../library/lists.js';
import { regexLibrary } from '../library/regex.js';
import { stringsExtension } from '../library/strings.js';
import { libraryRegistry } from '../library/types.js';
import { urlsLibrary } from '../library/urls.js';

/** Order matters: a name's overloads are tried in this order (string indexOf before lists'). */
export const kubernetesFunctions: readonly CelFunc[] = [
  ...conversionsLibrary,
  ...stringsExtension,
  ...listsLibrary,
  ...regexLibrary,
  ...urlsLibrary,
  ...authzLibrary,
];

/** The environment whose functions instrumented programs dispatch to. */
export const kubernetesEnv: CelEnv = celEnv({
  registry: libraryRegistry,
  funcs: [...kubernetesFunctions],
});
