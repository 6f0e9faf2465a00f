/**
 * Declarations of the libraries every Kubernetes v1.27 CEL environment has (apiserver v0.27.16
 * pkg/cel/library: lists.go, regex.go, urls.go, authz.go; libraries.go adds cel-go v0.12.7's
 * ext.Strings()). Only the signatures live here; the runtime library implements them.
 */
import { type FunctionDecl, fn, globalOverload, memberOverload } from './decls.js';
import {
  BOOL,
  BYTES,
  DOUBLE,
  DURATION,
  INT,
  STRING,
  TIMESTAMP,
  UINT,
  type CheckedType,
  listOf,
  mapOf,
  objectOf,
  typeParam,
} from './types.js';

export const URL_TYPE = objectOf('kubernetes.URL');
export const AUTHORIZER_TYPE = objectOf('kubernetes.authorization.Authorizer');
export const PATH_CHECK_TYPE = objectOf('kubernetes.authorization.PathCheck');
export const GROUP_CHECK_TYPE = objectOf('kubernetes.authorization.GroupCheck');
export const RESOURCE_CHECK_TYPE = objectOf('kubernetes.authorization.ResourceCheck');
export const DECISION_TYPE = objectOf('kubernetes.authorization.Decision');

const A = typeParam('A');
const LIST_STRING = listOf(STRING);

const summable: [string, CheckedType][] = [
  ['int', INT],
  ['uint', UINT],
  ['double', DOUBLE],
  ['duration', DURATION],
];
const comparable: [string, CheckedType][] = [
  ['int', INT],
  ['uint', UINT],
  ['double', DOUBLE],
  ['bool', BOOL],
  ['duration', DURATION],
  ['timestamp', TIMESTAMP],
  ['string', STRING],
  ['bytes', BYTES],
];

/** lists.go: isSorted, sum, min, max per element type; indexOf/lastIndexOf over list(A). */
const listsLibrary: FunctionDecl[] = [
  fn(
    'isSorted',
    ...comparable.map(([n, t]) => memberOverload(`list_${n}_is_sorted_bool`, [listOf(t)], BOOL)),
  ),
  fn('sum', ...summable.map(([n, t]) => memberOverload(`list_${n}_sum_${n}`, [listOf(t)], t))),
  fn('max', ...comparable.map(([n, t]) => memberOverload(`list_${n}_max_${n}`, [listOf(t)], t))),
  fn('min', ...comparable.map(([n, t]) => memberOverload(`list_${n}_min_${n}`, [listOf(t)], t))),
  fn('indexOf', memberOverload('list_a_index_of_int', [listOf(A), A], INT, ['A'])),
  fn('lastIndexOf', memberOverload('list_a_last_index_of_int', [listOf(A), A], INT, ['A'])),
];

/** regex.go. */
const regexLibrary: FunctionDecl[] = [
  fn('find', memberOverload('string_find_string', [STRING, STRING], STRING)),
  fn(
    'findAll',
    memberOverload('string_find_all_string', [STRING, STRING], LIST_STRING),
    memberOverload('string_find_all_string_int', [STRING, STRING, INT], LIST_STRING),
  ),
];

/** urls.go. */
const urlsLibrary: FunctionDecl[] = [
  fn('url', globalOverload('string_to_url', [STRING], URL_TYPE)),
  fn('getScheme', memberOverload('url_get_scheme', [URL_TYPE], STRING)),
  fn('getHost', memberOverload('url_get_host', [URL_TYPE], STRING)),
  fn('getHostname', memberOverload('url_get_hostname', [URL_TYPE], STRING)),
  fn('getPort', memberOverload('url_get_port', [URL_TYPE], STRING)),
  fn('getEscapedPath', memberOverload('url_get_escaped_path', [URL_TYPE], STRING)),
  fn('getQuery', memberOverload('url_get_query', [URL_TYPE], mapOf(STRING, LIST_STRING))),
  fn('isURL', globalOverload('is_url_string', [STRING], BOOL)),
];

/** authz.go (the `authorizer` variable itself is declared only by admission policies). */
const authzLibrary: FunctionDecl[] = [
  fn('path', memberOverload('authorizer_path', [AUTHORIZER_TYPE, STRING], PATH_CHECK_TYPE)),
  fn('group', memberOverload('authorizer_group', [AUTHORIZER_TYPE, STRING], GROUP_CHECK_TYPE)),
  fn(
    'serviceAccount',
    memberOverload('authorizer_serviceaccount', [AUTHORIZER_TYPE, STRING, STRING], AUTHORIZER_TYPE),
  ),
  fn('resource', memberOverload('groupcheck_resource', [GROUP_CHECK_TYPE, STRING], RESOURCE_CHECK_TYPE)),
  fn(
    'subresource',
    memberOverload('resourcecheck_subresource', [RESOURCE_CHECK_TYPE, STRING], RESOURCE_CHECK_TYPE),
  ),
  fn(
    'namespace',
    memberOverload('resourcecheck_namespace', [RESOURCE_CHECK_TYPE, STRING], RESOURCE_CHECK_TYPE),
  ),
  fn('name', memberOverload('resourcecheck_name', [RESOURCE_CHECK_TYPE, STRING], RESOURCE_CHECK_TYPE)),
  fn(
    'check',
    memberOverload('pathcheck_check', [PATH_CHECK_TYPE, STRING], DECISION_TYPE),
    memberOverload('resourcecheck_check', [RESOURCE_CHECK_TYPE, STRING], DECISION_TYPE),
  ),
  fn('allowed', memberOverload('decision_allowed', [DECISION_TYPE], BOOL)),
  fn('reason', memberOverload('decision_reason', [DECISION_TYPE], STRING)),
];

/** cel-go v0.12.7 ext/strings.go (the version Kubernetes v1.27 ships, before versioning). */
const stringsExtension: FunctionDecl[] = [
  fn('charAt', memberOverload('string_char_at_int', [STRING, INT], STRING)),
  fn(
    'indexOf',
    memberOverload('string_index_of_string', [STRING, STRING], INT),
    memberOverload('string_index_of_string_int', [STRING, STRING, INT], INT),
  ),
  fn(
    'lastIndexOf',
    memberOverload('string_last_index_of_string', [STRING, STRING], INT),
    memberOverload('string_last_index_of_string_int', [STRING, STRING, INT], INT),
  ),
  fn('lowerAscii', memberOverload('string_lower_ascii', [STRING], STRING)),
  fn(
    'replace',
    memberOverload('string_replace_string_string', [STRING, STRING, STRING], STRING),
    memberOverload('string_replace_string_string_int', [STRING, STRING, STRING, INT], STRING),
  ),
  fn(
    'split',
    memberOverload('string_split_string', [STRING, STRING], LIST_STRING),
    memberOverload('string_split_string_int', [STRING, STRING, INT], LIST_STRING),
  ),
  fn(
    'substring',
    memberOverload('string_substring_int', [STRING, INT], STRING),
    memberOverload('string_substring_int_int', [STRING, INT, INT], STRING),
  ),
  fn('trim', memberOverload('string_trim', [STRING], STRING)),
  fn('upperAscii', memberOverload('string_upper_ascii', [STRING], STRING)),
  fn(
    'join',
    memberOverload('list_join', [LIST_STRING], STRING),
    memberOverload('list_join_string', [LIST_STRING, STRING], STRING),
  ),
];

/**
 * Every library declaration, in libraries.go's order (URLs, Regex, Lists, Authz, then Strings);
 * `indexOf`/`lastIndexOf` end up with the list overload first and the string ones after it.
 */
export const kubernetesLibraryFunctions: readonly FunctionDecl[] = [
  ...urlsLibrary,
  ...regexLibrary,
  ...listsLibrary,
  ...authzLibrary,
  ...stringsExtension,
];
