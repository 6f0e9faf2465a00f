/**
 * The standard declarations of cel-go v0.12.7 (checker/standard.go): the type-name identifiers
 * and every operator and built-in function overload, with cel-go's overload ids (they key the cost
 * estimator and the disabled cross-type numeric comparisons).
 */
import { type FunctionDecl, fn, global, member } from './decls.js';
import {
  BOOL,
  BYTES,
  DOUBLE,
  DURATION,
  DYN,
  INT,
  NULL,
  STRING,
  TIMESTAMP,
  UINT,
  type CheckedType,
  listOf,
  mapOf,
  typeOf,
  typeParam,
} from './types.js';

const A = typeParam('A');
const B = typeParam('B');
const LIST_A = listOf(A);
const MAP_AB = mapOf(A, B);

/** Identifiers for the type names: `int` is `type(int)`, `list` is `type(list(A))`, … */
export const standardIdents: ReadonlyMap<string, CheckedType> = new Map<string, CheckedType>([
  ['int', typeOf(INT)],
  ['uint', typeOf(UINT)],
  ['bool', typeOf(BOOL)],
  ['double', typeOf(DOUBLE)],
  ['bytes', typeOf(BYTES)],
  ['string', typeOf(STRING)],
  ['list', typeOf(LIST_A)],
  ['map', typeOf(MAP_AB)],
  ['null_type', typeOf(NULL)],
  ['type', typeOf(typeOf(undefined))],
]);

/** The ordering operators, in cel-go's overload order (same-type first per operand type). */
function relation(op: string, prefix: string): FunctionDecl {
  const pairs: [string, CheckedType, CheckedType][] = [
    ['bool', BOOL, BOOL],
    ['int64', INT, INT],
    ['int64_double', INT, DOUBLE],
    ['int64_uint64', INT, UINT],
    ['uint64', UINT, UINT],
    ['uint64_double', UINT, DOUBLE],
    ['uint64_int64', UINT, INT],
    ['double', DOUBLE, DOUBLE],
    ['double_int64', DOUBLE, INT],
    ['double_uint64', DOUBLE, UINT],
    ['string', STRING, STRING],
    ['bytes', BYTES, BYTES],
    ['timestamp', TIMESTAMP, TIMESTAMP],
    ['duration', DURATION, DURATION],
  ];
  return fn(op, ...pairs.map(([suffix, l, r]) => global(`${prefix}_${suffix}`, [l, r], BOOL)));
}

/** cel-go's ids for the cross-type comparisons disabled unless CrossTypeNumericComparisons. */
export const crossTypeNumericComparisonOverloads: ReadonlySet<string> = new Set(
  ['less', 'less_equals', 'greater', 'greater_equals'].flatMap((p) =>
    ['double_int64', 'double_uint64', 'int64_double', 'int64_uint64', 'uint64_double', 'uint64_int64'].map(
      (s) => `${p}_${s}`,
    ),
  ),
);

function timeGetter(name: string, id: string, withDuration?: string): FunctionDecl {
  const overloads = [
    member(id, [TIMESTAMP], INT),
    member(
      id === 'timestamp_to_seconds' ? 'timestamp_to_seconds_tz' : `${id}_with_tz`,
      [TIMESTAMP, STRING],
      INT,
    ),
  ];
  if (withDuration !== undefined) overloads.push(member(withDuration, [DURATION], INT));
  return fn(name, ...overloads);
}

export const standardFunctions: readonly FunctionDecl[] = [
  fn('_?_:_', global('conditional', [BOOL, A, A], A, ['A'])),
  fn('_&&_', global('logical_and', [BOOL, BOOL], BOOL)),
  fn('_||_', global('logical_or', [BOOL, BOOL], BOOL)),
  fn('!_', global('logical_not', [BOOL], BOOL)),
  fn('@not_strictly_false', global('not_strictly_false', [BOOL], BOOL)),
  fn('_==_', global('equals', [A, A], BOOL, ['A'])),
  fn('_!=_', global('not_equals', [A, A], BOOL, ['A'])),
  fn(
    '_-_',
    global('subtract_int64', [INT, INT], INT),
    global('subtract_uint64', [UINT, UINT], UINT),
    global('subtract_double', [DOUBLE, DOUBLE], DOUBLE),
    global('subtract_timestamp_timestamp', [TIMESTAMP, TIMESTAMP], DURATION),
    global('subtract_timestamp_duration', [TIMESTAMP, DURATION], TIMESTAMP),
    global('subtract_duration_duration', [DURATION, DURATION], DURATION),
  ),
  fn(
    '_*_',
    global('multiply_int64', [INT, INT], INT),
    global('multiply_uint64', [UINT, UINT], UINT),
    global('multiply_double', [DOUBLE, DOUBLE], DOUBLE),
  ),
  fn(
    '_/_',
    global('divide_int64', [INT, INT], INT),
    global('divide_uint64', [UINT, UINT], UINT),
    global('divide_double', [DOUBLE, DOUBLE], DOUBLE),
  ),
  fn('_%_', global('modulo_int64', [INT, INT], INT), global('modulo_uint64', [UINT, UINT], UINT)),
  fn(
    '_+_',
    global('add_int64', [INT, INT], INT),
    global('add_uint64', [UINT, UINT], UINT),
    global('add_double', [DOUBLE, DOUBLE], DOUBLE),
    global('add_string', [STRING, STRING], STRING),
    global('add_bytes', [BYTES, BYTES], BYTES),
    global('add_list', [LIST_A, LIST_A], LIST_A, ['A']),
    global('add_timestamp_duration', [TIMESTAMP, DURATION], TIMESTAMP),
    global('add_duration_timestamp', [DURATION, TIMESTAMP], TIMESTAMP),
    global('add_duration_duration', [DURATION, DURATION], DURATION),
  ),
  fn('-_', global('negate_int64', [INT], INT), global('negate_double', [DOUBLE], DOUBLE)),
  fn('_[_]', global('index_list', [LIST_A, INT], A, ['A']), global('index_map', [MAP_AB, A], B, ['A', 'B'])),
  fn(
    'size',
    member('string_size', [STRING], INT),
    member('bytes_size', [BYTES], INT),
    member('list_size', [LIST_A], INT, ['A']),
    member('map_size', [MAP_AB], INT, ['A', 'B']),
    global('size_string', [STRING], INT),
    global('size_bytes', [BYTES], INT),
    global('size_list', [LIST_A], INT, ['A']),
    global('size_map', [MAP_AB], INT, ['A', 'B']),
  ),
  fn('@in', global('in_list', [A, LIST_A], BOOL, ['A']), global('in_map', [A, MAP_AB], BOOL, ['A', 'B'])),
  fn('in', global('in_list', [A, LIST_A], BOOL, ['A']), global('in_map', [A, MAP_AB], BOOL, ['A', 'B'])),
  fn('type', global('type', [A], typeOf(A), ['A'])),
  fn(
    'int',
    global('int64_to_int64', [INT], INT),
    global('uint64_to_int64', [UINT], INT),
    global('double_to_int64', [DOUBLE], INT),
    global('string_to_int64', [STRING], INT),
    global('timestamp_to_int64', [TIMESTAMP], INT),
    global('duration_to_int64', [DURATION], INT),
  ),
  fn(
    'uint',
    global('uint64_to_uint64', [UINT], UINT),
    global('int64_to_uint64', [INT], UINT),
    global('double_to_uint64', [DOUBLE], UINT),
    global('string_to_uint64', [STRING], UINT),
  ),
  fn(
    'double',
    global('double_to_double', [DOUBLE], DOUBLE),
    global('int64_to_double', [INT], DOUBLE),
    global('uint64_to_double', [UINT], DOUBLE),
    global('string_to_double', [STRING], DOUBLE),
  ),
  fn('bool', global('bool_to_bool', [BOOL], BOOL), global('string_to_bool', [STRING], BOOL)),
  fn(
    'string',
    global('string_to_string', [STRING], STRING),
    global('bool_to_string', [BOOL], STRING),
    global('int64_to_string', [INT], STRING),
    global('uint64_to_string', [UINT], STRING),
    global('double_to_string', [DOUBLE], STRING),
    global('bytes_to_string', [BYTES], STRING),
    global('timestamp_to_string', [TIMESTAMP], STRING),
    global('duration_to_string', [DURATION], STRING),
  ),
  fn('bytes', global('bytes_to_bytes', [BYTES], BYTES), global('string_to_bytes', [STRING], BYTES)),
  fn(
    'timestamp',
    global('timestamp_to_timestamp', [TIMESTAMP], TIMESTAMP),
    global('string_to_timestamp', [STRING], TIMESTAMP),
    global('int64_to_timestamp', [INT], TIMESTAMP),
  ),
  fn(
    'duration',
    global('duration_to_duration', [DURATION], DURATION),
    global('string_to_duration', [STRING], DURATION),
    global('int64_to_duration', [INT], DURATION),
  ),
  fn('dyn', global('to_dyn', [A], DYN, ['A'])),
  fn('contains', member('contains_string', [STRING, STRING], BOOL)),
  fn('endsWith', member('ends_with_string', [STRING, STRING], BOOL)),
  fn('matches', member('matches_string', [STRING, STRING], BOOL)),
  fn('startsWith', member('starts_with_string', [STRING, STRING], BOOL)),
  timeGetter('getFullYear', 'timestamp_to_year'),
  timeGetter('getMonth', 'timestamp_to_month'),
  timeGetter('getDayOfYear', 'timestamp_to_day_of_year'),
  timeGetter('getDayOfMonth', 'timestamp_to_day_of_month'),
  timeGetter('getDate', 'timestamp_to_day_of_month_1_based'),
  timeGetter('getDayOfWeek', 'timestamp_to_day_of_week'),
  timeGetter('getHours', 'timestamp_to_hours', 'duration_to_hours'),
  timeGetter('getMinutes', 'timestamp_to_minutes', 'duration_to_minutes'),
  timeGetter('getSeconds', 'timestamp_to_seconds', 'duration_to_seconds'),
  timeGetter('getMilliseconds', 'timestamp_to_milliseconds', 'duration_to_milliseconds'),
  relation('_<_', 'less'),
  relation('_<=_', 'less_equals'),
  relation('_>_', 'greater'),
  relation('_>=_', 'greater_equals'),
];
