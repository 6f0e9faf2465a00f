/**
 * `nanokube snapshot save FILE` and `nanokube snapshot restore FILE`: a running server's whole
 * cluster to a file and back, through its snapshot endpoint with the kubeconfig's credentials
 * (only a user allowed `get`/`update` on that path, such as the admin, may).
 */
import { request } from 'node:https';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClientCredentials } from '../client/credentials.js';
import { credentialsFromKubeconfig } from './kubeconfig-credentials.js';
import { parseCommandArgs } from './command-args.js';
import { FlagError } from './serve/flags.js';
import { snapshotContentType, snapshotPath } from './serve/snapshot.js';

export const snapshotUsage = `Usage: nanokube snapshot save|restore FILE [flags]

  save FILE      writes the running cluster's snapshot (every object with its resourceVersion,
                 Service IP and port allocations, Event leases) to FILE
  restore FILE   puts FILE's snapshot back while the server runs; open watches end with
                 410 Gone and clients relist

Flags:
  --kubeconfig string   the server and credentials (default: $KUBECONFIG, else .nanokube/kubeconfig)
  --context string      the kubeconfig context (default: its current context)
`;

function call(
  credentials: ClientCredentials,
  method: 'GET' | 'PUT',
  body?: Uint8Array,
): Promise<{ status: number; body: Buffer }> {
  const url = new URL(snapshotPath, credentials.server);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        ca: credentials.ca,
        ...(credentials.cert !== undefined ? { cert: credentials.cert } : {}),
        ...(credentials.key !== undefined ? { key: credentials.key } : {}),
        headers: {
          accept: `${snapshotContentType}, application/json`,
          ...(credentials.token !== undefined ? { authorization: `Bearer ${credentials.token}` } : {}),
          ...(body !== undefined
            ? { 'content-type': snapshotContentType, 'content-length': body.length }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The server's refusal as kubectl words it: the Status message when there is one. */
function refusal(status: number, body: Buffer): Error {
  let message = body.toString('utf8').trim();
  try {
    const parsed: unknown = JSON.parse(message);
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      typeof (parsed as { message?: unknown }).message === 'string'
    ) {
      message = (parsed as { message: string }).message;
    }
  } catch {
    // not JSON: the text as it came
  }
  return new Error(`Error from server (${status}): ${message}`);
}

export async function snapshotCommand(args: readonly string[]): Promise<void> {
  const parsed = parseCommandArgs(args, new Set(['kubeconfig', 'context']));
  if (parsed.help) {
    process.stdout.write(snapshotUsage);
    return;
  }
  const positional = parsed.positional;
  const kubeconfig =
    parsed.values.get('kubeconfig') ?? process.env['KUBECONFIG'] ?? join('.nanokube', 'kubeconfig');
  const context = parsed.values.get('context');
  const [verb, file] = positional;
  if ((verb !== 'save' && verb !== 'restore') || file === undefined || positional.length !== 2) {
    throw new FlagError(`expected "save FILE" or "restore FILE"\n\n${snapshotUsage}`);
  }
  const credentials = credentialsFromKubeconfig(kubeconfig, context);
  if (verb === 'save') {
    const res = await call(credentials, 'GET');
    if (res.status !== 200) throw refusal(res.status, res.body);
    await writeFile(file, res.body, { mode: 0o600 });
    process.stdout.write(`snapshot saved to ${file} (${res.body.length} bytes)\n`);
    return;
  }
  const res = await call(credentials, 'PUT', await readFile(file));
  if (res.status !== 200) throw refusal(res.status, res.body);
  const status = JSON.parse(res.body.toString('utf8')) as { message?: string };
  process.stdout.write(`${status.message ?? 'restored'} from ${file}\n`);
}
