// The machine's ceiling: a bare node:http server answering one fixed JSON body, as fast as Node can.
// Run as a child process: it reads BODY and PORT from its environment and says "ready" on stdout.
import { createServer } from 'node:http';

const body = Buffer.from(process.env.BODY ?? '{}');
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`ready ${typeof address === 'object' && address ? address.port : ''}`);
});
process.once('SIGTERM', () => server.close());
