// The least a Node.js API server can be, for bench/node-floor.mjs: an HTTP/2 server with TLS
// (HTTP/1.1 allowed), client certificates verified against the CA, answering every request 200
// with a fixed body. It imports only node's own modules, so that what it costs is Node's alone.
//
//   node bench/node-floor-server.mjs PKI_DIR PORT   (PKI_DIR: a nanokube data dir's pki/)
import { readFileSync } from 'node:fs';
import { createSecureServer } from 'node:http2';
import { join } from 'node:path';

const [pkiDir = '', port = ''] = process.argv.slice(2);
const server = createSecureServer(
  {
    allowHTTP1: true,
    cert: readFileSync(join(pkiDir, 'apiserver.crt')),
    key: readFileSync(join(pkiDir, 'apiserver.key')),
    ca: readFileSync(join(pkiDir, 'ca.crt')),
    requestCert: true,
    rejectUnauthorized: true,
  },
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"default"}}');
  },
);
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
