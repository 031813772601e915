/**
 * Reference 1 of the benchmark: the fastest a Node.js server on this machine can answer. A raw
 * node:http server with a fixed JSON body; no routing, no parsing, no database.
 *   PORT=3101 tsx bench/reference-http.ts
 */
import { createServer } from 'node:http';

const body = JSON.stringify({ hello: 'world' });
const port = Number(process.env.PORT ?? 3101);

createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(port, '127.0.0.1', () => console.log(`reference-http listening on ${port}`));
