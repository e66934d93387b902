import type { FastifyInstance } from 'fastify';
import { createGunzip } from 'node:zlib';
import { HttpError } from '../http/errors';

/**
 * The client's transport gzips bodies of 500 bytes and more (spec §5), for every call: in the scope this is added to,
 * bodies are decompressed before parsing, bounded to `maxDecodedBytes` (a small gzip must not inflate into a huge
 * parse), and a body that is not gzip is a clear 400. Shared by the API calls and the platform calls, each scope with
 * its own bound.
 */
export function decodeGzipBodies(scope: FastifyInstance, maxDecodedBytes: number): void {
  scope.addHook('preParsing', async (request, _reply, payload) => {
    const encoding = String(request.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    if (encoding === 'identity') return payload;
    if (encoding !== 'gzip') throw new HttpError(415, `Unsupported Content-Encoding "${encoding.slice(0, 40)}" (gzip or none)`);
    let decoded = 0;
    const gunzip = createGunzip();
    gunzip.on('data', (chunk: Buffer) => {
      decoded += chunk.byteLength;
      if (decoded > maxDecodedBytes) gunzip.destroy(new HttpError(413, `Decompressed body is larger than ${maxDecodedBytes} bytes`));
    });
    const output = payload.pipe(gunzip) as typeof gunzip & { receivedEncodedLength?: number };
    payload.on('data', (chunk: Buffer) => {
      output.receivedEncodedLength = (output.receivedEncodedLength ?? 0) + chunk.byteLength;
    });
    gunzip.on('error', (error) => {
      if (!(error instanceof HttpError)) gunzip.destroy(new HttpError(400, 'Malformed gzip body'));
    });
    return output;
  });
}
