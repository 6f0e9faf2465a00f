/**
 * Declarations of the libraries every Kubernetes v1.27 CEL environment has (apiserver v0.27.16
 * pkg/cel/library: lists.go, regex.go, urls.go, authz.go; libraries.go adds cel-go v0.12.7's
 * ext.Strings()). Only the signatures live here; the runtime library implements them.
 */
import { type FunctionDecl, fn, global, member } from './decls.js';
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
  fn('isSorted', ...comparable.map(([n, t]) => member(`list_${n}_is_sorted_bool`, [listOf(t)], BOOL))),
  fn('sum', ...summable.map(([n, t]) => member(`list_${n}_sum_${n}`, [listOf(t)], t))),
  fn('max', ...comparable.map(([n, t]) => member(`list_${n}_max_${n}`, [listOf(t)], t))),
  fn('min', ...comparable.map(([n, t]) => member(`list_${n}_min_${n}`, [listOf(t)], t))),
  fn('indexOf', member('list_a_index_of_int', [listOf(A), A], INT, ['A'])),
  fn('lastIndexOf', member('list_a_last_index_of_int', [listOf(A), A], INT, ['A'])),
];

/** regex.go. */
const regexLibrary: FunctionDecl[] = [
  fn('find', member('string_find_string', [STRING, STRING], STRING)),
  fn(
    'findAll',
    member('string_find_all_string', [STRING, STRING], LIST_STRING),
    member('string_find_all_string_int', [STRING, STRING, INT], LIST_STRING),
  ),
];

/** urls.go. */
const urlsLibrary: FunctionDecl[] = [
  fn('url', global('string_to_url', [STRING], URL_TYPE)),
  fn('getScheme', member('url_get_scheme', [URL_TYPE], STRING)),
  fn('getHost', member('url_get_host', [URL_TYPE], STRING)),
  fn('getHostname', member('url_get_hostname', [URL_TYPE], STRING)),
  fn('getPort', member('url_get_port', [URL_TYPE], STRING)),
  fn('getEscapedPath', member('url_get_escaped_path', [URL_TYPE], STRING)),
  fn('getQuery', member('url_get_query', [URL_TYPE], mapOf(STRING, LIST_STRING))),
  fn('isURL', global('is_url_string', [STRING], BOOL)),
];

/** authz.go (the `authorizer` variable itself is declared only by admission policies). */
const authzLibrary: FunctionDecl[] = [
  fn('path', member('authorizer_path', [AUTHORIZER_TYPE, STRING], PATH_CHECK_TYPE)),
  fn('group', member('authorizer_group', [AUTHORIZER_TYPE, STRING], GROUP_CHECK_TYPE)),
  fn(
    'serviceAccount',
    member('authorizer_serviceaccount', [AUTHORIZER_TYPE, STRING, STRING], AUTHORIZER_TYPE),
  ),
  fn('resource', member('groupcheck_resource', [GROUP_CHECK_TYPE, STRING], RESOURCE_CHECK_TYPE)),
  fn('subresource', member('resourcecheck_subresource', [RESOURCE_CHECK_TYPE, STRING], RESOURCE_CHECK_TYPE)),
  fn('namespace', member('resourcecheck_namespace', [RESOURCE_CHECK_TYPE, STRING], RESOURCE_CHECK_TYPE)),
  fn('name', member('resourcecheck_name', [RESOURCE_CHECK_TYPE, STRING], RESOURCE_CHECK_TYPE)),
  fn(
    'check',
    member('pathcheck_check', [PATH_CHECK_TYPE, STRING], DECISION_TYPE),
    member('resourcecheck_check', [RESOURCE_CHECK_TYPE, STRING], DECISION_TYPE),
  ),
  fn('allowed', member('decision_allowed', [DECISION_TYPE], BOOL)),
  fn('reason', member('decision_reason', [DECISION_TYPE], STRING)),
];

/** cel-go v0.12.7 ext/strings.go (the version Kubernetes v1.27 ships, before versioning). */
const stringsExtension: FunctionDecl[] = [
  fn('charAt', member('string_char_at_int', [STRING, INT], STRING)),
  fn(
    'indexOf',
    member('string_index_of_string', [STRING, STRING], INT),
    member('string_index_of_string_int', [STRING, STRING, INT], INT),
  ),
  fn(
    'lastIndexOf',
    member('string_last_index_of_string', [STRING, STRING], INT),
    member('string_last_index_of_string_int', [STRING, STRING, INT], INT),
  ),
  fn('lowerAscii', member('string_lower_ascii', [STRING], STRING)),
  fn(
    'replace',
    member('string_replace_string_string', [STRING, STRING, STRING], STRING),
    member('string_replace_string_string_int', [STRING, STRING, STRING, INT], STRING),
  ),
  fn(
    'split',
    member('string_split_string', [STRING, STRING], LIST_STRING),
    member('string_split_string_int', [STRING, STRING, INT], LIST_STRING),
  ),
  fn(
    'substring',
    member('string_substring_int', [STRING, INT], STRING),
    member('string_substring_int_int', [STRING, INT, INT], STRING),
  ),
  fn('trim', member('string_trim', [STRING], STRING)),
  fn('upperAscii', member('string_upper_ascii', [STRING], STRING)),
  fn(
    'join',
    member('list_join', [LIST_STRING], STRING),
    member('list_join_string', [LIST_STRING, STRING], STRING),
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
