/**
 * Impersonation (upstream WithImpersonation): `Impersonate-User`, `Impersonate-Group`,
 * `Impersonate-Uid` and `Impersonate-Extra-<key>` headers make the request act as another user,
 * each asked of the authorizer as the `impersonate` verb on users, serviceaccounts, groups, uids
 * or userextras/<key> first. Refusals are upstream's 403s; headers are removed once applied.
 */
import type { AuthorizationAttributes, Authorizer } from '../../auth/authorizer.js';
import { forbiddenReason, sanitize } from '../../auth/forbidden-message.js';
import { splitServiceAccountUsername } from '../../auth/serviceaccount/claims.js';
import { apiErrors } from '../../machinery/errors.js';
import { goQuote } from '../../machinery/field/errors.js';
import { wellKnownGroups, wellKnownUsers } from '../../machinery/user.js';
import type { ServerRequest } from '../body.js';
import type { Filter } from '../context.js';
import { userOf } from '../context.js';
import { ChainResponseError } from './chain-response.js';

interface Impersonation {
  readonly kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  readonly name: string;
  readonly namespace: string;
  /** For UserExtra: the extra key. */
  readonly key: string;
}

const extraPrefix = 'impersonate-extra-';

/** Every value of each header, as sent (repeated headers stay separate). */
function headerValues(req: ServerRequest): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // Most requests impersonate no one: the parsed headers say so without the raw list.
  let any = false;
  for (const name in req.headers) if (name.startsWith('impersonate-')) any = true;
  if (!any) return out;
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!name.startsWith('impersonate-')) continue;
    const list = out.get(name) ?? [];
    list.push(raw[i + 1]!);
    out.set(name, list);
  }
  return out;
}

/** Go's %v of the ObjectReference list upstream builds (used in one error text). */
function goRefs(list: readonly Impersonation[]): string {
  const one = (i: Impersonation): string => {
    const apiVersion = i.kind === 'UserExtra' || i.kind === 'UID' ? 'authentication.k8s.io/v1' : '';
    return `{${[i.kind, i.namespace, i.name, '', apiVersion, '', i.key].join(' ')}}`;
  };
  return `[${list.map(one).join(' ')}]`;
}

function requests(headers: Map<string, string[]>, requestURI: string): Impersonation[] {
  const out: Impersonation[] = [];
  const user = headers.get('impersonate-user')?.[0] ?? '';
  if (user !== '') {
    const sa = splitServiceAccountUsername(user);
    out.push(
      sa !== undefined
        ? { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace, key: '' }
        : { kind: 'User', name: user, namespace: '', key: '' },
    );
  }
  for (const group of headers.get('impersonate-group') ?? []) {
    out.push({ kind: 'Group', name: group, namespace: '', key: '' });
  }
  for (const [header, values] of headers) {
    if (!header.startsWith(extraPrefix)) continue;
    let key = header.slice(extraPrefix.length);
    try {
      key = decodeURIComponent(key);
    } catch {
      // Upstream keeps a key that does not unescape as it is.
    }
    for (const value of values) out.push({ kind: 'UserExtra', name: value, namespace: '', key });
  }
  const uid = headers.get('impersonate-uid')?.[0] ?? '';
  if (uid !== '') out.push({ kind: 'UID', name: uid, namespace: '', key: '' });
  if (user === '' && out.length > 0) {
    // Upstream answers with responsewriters.InternalError (plain text, HTML-escaped).
    const text = `Internal Server Error: ${goQuote(requestURI)}: requested ${goRefs(out)} without impersonating a user`;
    throw new ChainResponseError(500, `${sanitize(text)}\n`);
  }
  return out;
}

const resources: Readonly<Record<Impersonation['kind'], { group: string; resource: string }>> = {
  User: { group: '', resource: 'users' },
  ServiceAccount: { group: '', resource: 'serviceaccounts' },
  Group: { group: '', resource: 'groups' },
  UserExtra: { group: 'authentication.k8s.io', resource: 'userextras' },
  UID: { group: 'authentication.k8s.io', resource: 'uids' },
};

export function withImpersonation(authorizer: Authorizer): Filter {
  return async (ctx, next) => {
    // Go's RequestURI: the request target as sent, not as parsed.
    const wanted = requests(headerValues(ctx.req), ctx.req.url ?? ctx.url.pathname + ctx.url.search);
    if (wanted.length === 0) return next(ctx);
    const requestor = userOf(ctx);
    const groupsSpecified = wanted.some((w) => w.kind === 'Group');
    let name = '';
    let uid = '';
    let groups: string[] = [];
    const extra: Record<string, string[]> = {};
    for (const w of wanted) {
      const r = resources[w.kind];
      const attributes: AuthorizationAttributes = {
        user: requestor,
        verb: 'impersonate',
        isResourceRequest: true,
        path: ctx.path,
        namespace: w.namespace,
        apiGroup: r.group,
        apiVersion: 'v1',
        resource: r.resource,
        subresource: w.kind === 'UserExtra' ? w.key : '',
        name: w.name,
      };
      if (w.kind === 'ServiceAccount') {
        name = `system:serviceaccount:${w.namespace}:${w.name}`;
        if (!groupsSpecified) {
          groups = [wellKnownGroups.serviceAccounts, `${wellKnownGroups.serviceAccounts}:${w.namespace}`];
        }
      } else if (w.kind === 'User') name = w.name;
      else if (w.kind === 'Group') groups.push(w.name);
      else if (w.kind === 'UserExtra') (extra[w.key] ??= []).push(w.name);
      else uid = w.name;
      const decision = await authorizer.authorize(attributes);
      if (decision.decision !== 'allow') {
        throw apiErrors.forbiddenRequest(
          { group: r.group, resource: r.resource },
          w.name,
          forbiddenReason(attributes, decision.reason),
        );
      }
    }
    if (name !== wellKnownUsers.anonymous) {
      const explicit = groups.some(
        (g) => g === wellKnownGroups.authenticated || g === wellKnownGroups.unauthenticated,
      );
      if (!explicit) groups.push(wellKnownGroups.authenticated);
    } else if (!groups.includes(wellKnownGroups.unauthenticated)) {
      groups.push(wellKnownGroups.unauthenticated);
    }
    const user = { name, uid, groups, extra };
    ctx.audit.impersonatedUser = user;
    for (const header of Object.keys(ctx.req.headers)) {
      if (header.startsWith('impersonate-')) delete ctx.req.headers[header];
    }
    return next({ ...ctx, user });
  };
}
