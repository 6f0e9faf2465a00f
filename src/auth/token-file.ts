/**
 * Static tokens (`--token-auth-file`, upstream plugin/pkg/authenticator/token/tokenfile): a CSV
 * file read once at start, `token,user,uid[,"group1,group2"]` per record, parsed as Go's
 * encoding/csv reads it (quoted fields, variable field counts). Fewer than three columns stops the
 * server with upstream's error; an empty token is skipped and a repeated token replaces the earlier
 * one (both with upstream's warning).
 */
import { timingSafeEqual } from 'node:crypto';
import type { UserInfo } from '../machinery/user.js';
import type { TokenAuthenticator, TokenResult } from './token-authenticator.js';

export class TokenFileError extends Error {
  override readonly name = 'TokenFileError';
}

/**
 * Go's encoding/csv Reader with FieldsPerRecord = -1: records of fields separated by commas,
 * `"` quoting (`""` inside quotes is a quote), CRLF or LF line ends, empty lines skipped.
 */
export function parseGoCsv(text: string): string[][] {
  const records: string[][] = [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  let lineNo = 0;
  while (lineNo < lines.length) {
    let line = lines[lineNo]!;
    lineNo++;
    if (line === '' && lineNo === lines.length) break;
    if (line === '') continue;
    const recordLine = lineNo;
    const fields: string[] = [];
    let pos = 0;
    for (;;) {
      if (line[pos] === '"') {
        // Quoted field: may span lines.
        let value = '';
        let i = pos + 1;
        for (;;) {
          const q = line.indexOf('"', i);
          if (q < 0) {
            value += line.slice(i);
            if (lineNo >= lines.length) {
              throw new TokenFileError(
                `record on line ${recordLine}; parse error on line ${lineNo + 1}, column 0: extraneous or missing " in quoted-field`,
              );
            }
            value += '\n';
            line = lines[lineNo]!;
            lineNo++;
            i = 0;
            continue;
          }
          value += line.slice(i, q);
          const next = line[q + 1];
          if (next === '"') {
            value += '"';
            i = q + 2;
            continue;
          }
          if (next === ',' || next === undefined) {
            fields.push(value);
            pos = q + 1;
            break;
          }
          throw new TokenFileError(
            `parse error on line ${lineNo}, column ${q + 2}: extraneous or missing " in quoted-field`,
          );
        }
        if (pos >= line.length) break;
        pos++; // the comma
        continue;
      }
      const comma = line.indexOf(',', pos);
      const field = comma < 0 ? line.slice(pos) : line.slice(pos, comma);
      const bare = field.indexOf('"');
      if (bare >= 0) {
        throw new TokenFileError(
          `parse error on line ${lineNo}, column ${pos + bare + 1}: bare " in non-quoted-field`,
        );
      }
      fields.push(field);
      if (comma < 0) break;
      pos = comma + 1;
    }
    records.push(fields);
  }
  return records;
}

export interface TokenFile {
  readonly users: ReadonlyMap<string, UserInfo>;
  /** upstream's klog warnings (empty or repeated tokens). */
  readonly warnings: readonly string[];
}

/** upstream tokenfile.NewCSV over the file's text. */
export function parseTokenFile(text: string, path: string): TokenFile {
  const users = new Map<string, UserInfo>();
  const warnings: string[] = [];
  let recordNum = 0;
  for (const record of parseGoCsv(text)) {
    if (record.length < 3) {
      throw new TokenFileError(
        `token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`,
      );
    }
    recordNum++;
    const [token, name, uid] = record as [string, string, string];
    if (token === '') {
      warnings.push(`empty token has been found in token file '${path}', record number '${recordNum}'`);
      continue;
    }
    if (users.has(token)) {
      warnings.push(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
    }
    users.set(token, { name, uid, groups: record.length >= 4 ? record[3]!.split(',') : [], extra: {} });
  }
  return { users, warnings };
}

function equalTokens(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The authenticator over a parsed file: a known token is its user. The tokens have no audiences
 * of their own (upstream WrapAudienceAgnosticToken): they count only for the API audiences, so a
 * request or TokenReview for other audiences does not recognise them.
 */
export function tokenFileAuthenticator(file: TokenFile, apiAudiences: readonly string[]): TokenAuthenticator {
  const entries = [...file.users.entries()];
  return {
    authenticateToken(token, requested): Promise<TokenResult> {
      const audiences = requested.filter((a) => apiAudiences.includes(a));
      if (audiences.length === 0) return Promise.resolve({ kind: 'none' });
      // Compare every entry in constant time per entry rather than looking the token up.
      let user: UserInfo | undefined;
      for (const [t, u] of entries) if (equalTokens(t, token)) user = u;
      if (user === undefined) return Promise.resolve({ kind: 'none' });
      return Promise.resolve({ kind: 'authenticated', user, audiences });
    },
  };
}
