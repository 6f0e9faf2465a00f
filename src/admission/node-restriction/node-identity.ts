/**
 * Which node a user is (upstream pkg/auth/nodeidentifier's default identifier): a user named
 * `system:node:<name>` in the `system:nodes` group is the node `<name>` (possibly '', which the
 * caller must refuse); any other user is no node.
 */
import type { UserInfo } from '../../machinery/user.js';

export const nodeUserNamePrefix = 'system:node:';
export const nodesGroup = 'system:nodes';

/** The node's name, or undefined when the user is not a node. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.name.startsWith(nodeUserNamePrefix)) return undefined;
  if (!user.groups.includes(nodesGroup)) return undefined;
  return user.name.slice(nodeUserNamePrefix.length);
}
