// The Kubernetes URL library (apiserver v0.27.16 pkg/cel/library/urls.go): url(string) and
// isURL(string) accept what Go's url.ParseRequestURI accepts (then keep url.Parse's result), and
// getScheme/getHost/getHostname/getPort/getEscapedPath/getQuery read it as net/url does.
import { create, type Message } from '@bufbuild/protobuf';
import {
  celFunc,
  celList,
  celMap,
  celMethod,
  CelScalar,
  objectType,
  type CelFunc,
  type CelList,
} from '@bufbuild/cel';
import {
  escapedPath,
  GoUrlError,
  hostname,
  parseRequestUri,
  parseUrl,
  port,
  query,
  type GoUrl,
} from './go-url.js';
import { URL_TYPE } from './types.js';

const { STRING, BOOL, DYN } = CelScalar;
const URL = objectType(URL_TYPE);

function toUrl(s: string): Message {
  try {
    parseRequestUri(s);
    parseUrl(s);
  } catch (err) {
    if (err instanceof GoUrlError) {
      throw new Error(`URL parse error during conversion from string: ${err.message}`);
    }
    throw err;
  }
  return create(URL_TYPE, { raw: s });
}

function isUrl(s: string): boolean {
  try {
    parseRequestUri(s);
    return true;
  } catch {
    return false;
  }
}

function parsed(value: { message: unknown }): GoUrl {
  const raw = (value.message as { raw?: unknown }).raw;
  return parseUrl(typeof raw === 'string' ? raw : '');
}

function queryMap(u: GoUrl) {
  const entries = new Map<string, CelList>();
  for (const [k, v] of query(u)) entries.set(k, celList(v));
  return celMap(entries);
}

export const urlsLibrary: readonly CelFunc[] = [
  celFunc('url', [STRING], URL, (s) => toUrl(s)),
  celFunc('isURL', [STRING], BOOL, (s) => isUrl(s)),
  celMethod('getScheme', URL, [], STRING, function () {
    return parsed(this).scheme;
  }),
  celMethod('getHost', URL, [], STRING, function () {
    return parsed(this).host;
  }),
  celMethod('getHostname', URL, [], STRING, function () {
    return hostname(parsed(this));
  }),
  celMethod('getPort', URL, [], STRING, function () {
    return port(parsed(this));
  }),
  celMethod('getEscapedPath', URL, [], STRING, function () {
    return escapedPath(parsed(this));
  }),
  celMethod('getQuery', URL, [], DYN, function () {
    return queryMap(parsed(this));
  }),
];
