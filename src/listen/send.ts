// One HTTP request of `ledgerhook listen`, to the service or to the application it forwards to. Node's
// own client rather than fetch: fetch refuses ports browsers block (6000, 6665–6669, 10080…), where a
// developer's application may well listen, and adds headers of its own to what is forwarded.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface Sent {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body?: Buffer | string;
  /** The whole exchange's budget: past it the request is abandoned and the promise rejected. */
  timeoutMs: number;
}

/** Rejects with the reason when no answer came: refused, reset, timed out. Redirects are not followed. */
export function send(url: URL, { method, headers, body, timeoutMs }: SendOptions): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method,
      headers,
      signal: AbortSignal.timeout(timeoutMs),
    });
    request.on('error', (error: Error) =>
      reject(error.name === 'AbortError' ? new Error(`no answer within ${timeoutMs / 1000} s`) : error),
    );
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.end(body);
  });
}
