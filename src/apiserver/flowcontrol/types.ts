/**
 * What API Priority and Fairness reads of FlowSchemas and PriorityLevelConfigurations (v1beta3
 * objects, already validated and defaulted by the registry), and the source of those objects the
 * composition root provides (the apiserver layer does not reach into storage).
 */
import type { JsonObject } from '../../util/json.js';

export type Subject =
  | { readonly kind: 'User'; readonly name: string }
  | { readonly kind: 'Group'; readonly name: string }
  | { readonly kind: 'ServiceAccount'; readonly namespace: string; readonly name: string };

export interface ResourceRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly clusterScope: boolean;
  readonly namespaces: readonly string[];
}

export interface NonResourceRule {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

export interface PolicyRules {
  readonly subjects: readonly Subject[];
  readonly resourceRules: readonly ResourceRule[];
  readonly nonResourceRules: readonly NonResourceRule[];
}

export interface FlowSchemaDigest {
  readonly name: string;
  readonly uid: string;
  readonly priorityLevel: string;
  readonly matchingPrecedence: number;
  readonly distinguisher: 'ByUser' | 'ByNamespace' | undefined;
  readonly rules: readonly PolicyRules[];
  /** The Dangling condition as stored (status, reason, message), if any. */
  readonly dangling:
    { readonly status: string; readonly reason: string; readonly message: string } | undefined;
}

export interface QueuingDigest {
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
}

export interface PriorityLevelDigest {
  readonly name: string;
  readonly uid: string;
  /** Undefined: an Exempt level. */
  readonly limited:
    | {
        readonly nominalConcurrencyShares: number;
        readonly lendablePercent: number | undefined;
        readonly borrowingLimitPercent: number | undefined;
        /** Undefined: limitResponse Reject. */
        readonly queuing: QueuingDigest | undefined;
      }
    | undefined;
}

/** A FlowSchema condition as the controller writes it (upstream FlowSchemaCondition). */
export interface FlowSchemaCondition {
  readonly type: string;
  readonly status: 'True' | 'False';
  readonly lastTransitionTime: string;
  readonly reason: string;
  readonly message: string;
}

/** Where the configuration comes from and where status goes (implemented by cmd/serve). */
export interface FlowcontrolConfigSource {
  /**
   * Calls `onChange` with every object (v1beta3 JSON) once the first lists are complete, and
   * after each change, until `signal` aborts.
   */
  run(
    onChange: (levels: readonly JsonObject[], schemas: readonly JsonObject[]) => void,
    signal: AbortSignal,
  ): Promise<void>;
  /** Writes one status condition of a FlowSchema (upstream: server-side apply of status). */
  writeFlowSchemaCondition(name: string, condition: FlowSchemaCondition): Promise<void>;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
const objOf = (v: unknown): JsonObject | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : undefined;
const objs = (v: unknown): JsonObject[] =>
  Array.isArray(v) ? v.map(objOf).filter((x): x is JsonObject => x !== undefined) : [];
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

function subjectOf(s: JsonObject): Subject | undefined {
  switch (s['kind']) {
    case 'User':
      return { kind: 'User', name: str(objOf(s['user'])?.['name']) };
    case 'Group':
      return { kind: 'Group', name: str(objOf(s['group'])?.['name']) };
    case 'ServiceAccount': {
      const sa = objOf(s['serviceAccount']);
      return { kind: 'ServiceAccount', namespace: str(sa?.['namespace']), name: str(sa?.['name']) };
    }
    default:
      return undefined;
  }
}

export function flowSchemaDigest(o: JsonObject): FlowSchemaDigest {
  const meta = objOf(o['metadata']);
  const spec = objOf(o['spec']);
  const method = str(objOf(spec?.['distinguisherMethod'])?.['type']);
  const dangling = objs(objOf(o['status'])?.['conditions']).find((c) => c['type'] === 'Dangling');
  return {
    name: str(meta?.['name']),
    uid: str(meta?.['uid']),
    priorityLevel: str(objOf(spec?.['priorityLevelConfiguration'])?.['name']),
    matchingPrecedence: num(spec?.['matchingPrecedence']) ?? 1000,
    distinguisher: method === 'ByUser' || method === 'ByNamespace' ? method : undefined,
    rules: objs(spec?.['rules']).map((r) => ({
      subjects: objs(r['subjects'])
        .map(subjectOf)
        .filter((s): s is Subject => s !== undefined),
      resourceRules: objs(r['resourceRules']).map((rr) => ({
        verbs: strs(rr['verbs']),
        apiGroups: strs(rr['apiGroups']),
        resources: strs(rr['resources']),
        clusterScope: rr['clusterScope'] === true,
        namespaces: strs(rr['namespaces']),
      })),
      nonResourceRules: objs(r['nonResourceRules']).map((nr) => ({
        verbs: strs(nr['verbs']),
        nonResourceURLs: strs(nr['nonResourceURLs']),
      })),
    })),
    dangling:
      dangling === undefined
        ? undefined
        : {
            status: str(dangling['status']),
            reason: str(dangling['reason']),
            message: str(dangling['message']),
          },
  };
}

export function priorityLevelDigest(o: JsonObject): PriorityLevelDigest {
  const meta = objOf(o['metadata']);
  const spec = objOf(o['spec']);
  const limited = objOf(spec?.['limited']);
  const response = objOf(limited?.['limitResponse']);
  const queuing = response?.['type'] === 'Queue' ? objOf(response['queuing']) : undefined;
  return {
    name: str(meta?.['name']),
    uid: str(meta?.['uid']),
    limited:
      spec?.['type'] === 'Exempt' || limited === undefined
        ? undefined
        : {
            nominalConcurrencyShares: num(limited['nominalConcurrencyShares']) ?? 30,
            lendablePercent: num(limited['lendablePercent']),
            borrowingLimitPercent: num(limited['borrowingLimitPercent']),
            queuing:
              queuing === undefined
                ? undefined
                : {
                    queues: num(queuing['queues']) ?? 64,
                    handSize: num(queuing['handSize']) ?? 8,
                    queueLengthLimit: num(queuing['queueLengthLimit']) ?? 50,
                  },
          },
  };
}
