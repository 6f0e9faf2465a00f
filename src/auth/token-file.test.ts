/** --token-auth-file parsing as upstream's tokenfile.NewCSV over Go's encoding/csv. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseGoCsv, parseTokenFile, TokenFileError, tokenFileAuthenticator } from './token-file.js';

test('records, quoted group lists, CRLF and blank lines', () => {
  assert.deepEqual(parseGoCsv('a,b,c,"g1,g2"\r\n\nd,"e ""x""",f\n'), [
    ['a', 'b', 'c', 'g1,g2'],
    ['d', 'e "x"', 'f'],
  ]);
});

test('users with groups; empty tokens skipped and repeated ones replaced, with upstream warnings', async () => {
  const file = parseTokenFile('t1,alice,1,"dev,qa"\n,nobody,2\nt1,alice2,3\nt2,bob,4\n', '/f.csv');
  assert.deepEqual(file.warnings, [
    "empty token has been found in token file '/f.csv', record number '2'",
    "duplicate token has been found in token file '/f.csv', record number '3'",
  ]);
  assert.deepEqual(file.users.get('t2'), { name: 'bob', uid: '4', groups: [], extra: {} });
  const a = tokenFileAuthenticator(file, ['api', 'aud']);
  const r = await a.authenticateToken('t1', ['x', 'aud']);
  assert.deepEqual(r, {
    kind: 'authenticated',
    user: { name: 'alice2', uid: '3', groups: [], extra: {} },
    audiences: ['aud'],
  });
  assert.deepEqual(await a.authenticateToken('t3', ['api']), { kind: 'none' });
  // Audience-agnostic tokens count only for the API audiences (upstream WrapAudienceAgnosticToken).
  assert.deepEqual(await a.authenticateToken('t1', ['vault']), { kind: 'none' });
  const groups = parseTokenFile('t,u,1,"a,b"\n', 'x').users.get('t');
  assert.deepEqual(groups?.groups, ['a', 'b']);
});

test('errors stop the start: too few columns, bad quotes', () => {
  assert.throws(
    () => parseTokenFile('t1,alice\n', '/f.csv'),
    new TokenFileError(
      "token file '/f.csv' must have at least 3 columns (token, user name, user uid), found 2",
    ),
  );
  assert.throws(
    () => parseTokenFile('t1,al"ice,1\n', '/f.csv'),
    /parse error on line 1, column 6: bare " in non-quoted-field/,
  );
  assert.throws(() => parseTokenFile('"t1"x,alice,1\n', '/f.csv'), /extraneous or missing " in quoted-field/);
});
