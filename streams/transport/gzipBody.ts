/** The `CompressionStream` constructor of the platform (browsers, Node ≥ 18), if any. */
export type CompressionStreamConstructor = new (format: 'gzip') => {
  readable: ReadableStream<Uint8Array>;
  writable: WritableStream<Uint8Array>;
};

/** Thrown (as a rejection) when the platform has no `CompressionStream`: the caller sends uncompressed. */
export class CompressionUnavailableError extends Error {
  override readonly name = 'CompressionUnavailableError';
  constructor() {
    super('CompressionStream is not available');
  }
}

/** UTF-8 size of a string in bytes (what goes on the wire). */
export const utf8ByteLength = (body: string): number => new TextEncoder().encode(body).byteLength;

/**
 * Gzips a request body with the platform's `CompressionStream`, off the main thread's critical path.
 * This is a Promise edge used by the transport only; stream logic never awaits it.
 * Rejects with {@link CompressionUnavailableError} when `CompressionStream` is missing (or `null` is passed).
 */
export async function gzipBody(
  body: string,
  Compression: CompressionStreamConstructor | null | undefined = (globalThis as { CompressionStream?: CompressionStreamConstructor }).CompressionStream,
): Promise<Uint8Array> {
  if (typeof Compression !== 'function') throw new CompressionUnavailableError();
  const stream = new Compression('gzip');
  const writer = stream.writable.getWriter();
  // Write and read concurrently: awaiting the write first can deadlock once the readable side's queue is full.
  const written = writer.write(new TextEncoder().encode(body)).then(() => writer.close());
  const chunks: Uint8Array[] = [];
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  await written;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
