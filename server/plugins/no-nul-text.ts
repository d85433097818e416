import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';

/** Where in `value` a string (or an object key) holds U+0000, as "body.destinations.0.url"; null when nowhere. */
function nulPath(value: unknown, where: string, depth: number): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? where : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const [key, inner] of Object.entries(value)) {
    const path = `${where}.${key.replaceAll('\u0000', '\\0')}`;
    if (key.includes('\u0000')) return path;
    const found = nulPath(inner, path, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000 and SQLite's can: a NUL in a request would be stored on one
 * database and fail with a 500 on the other. It is refused up front, the same on both, naming the
 * field. No one types a NUL; it only comes from broken clients and fuzzers.
 */
export default fp(
  async (app) => {
    app.addHook('preValidation', async (request) => {
      const parts: [string, unknown][] = [
        ['params', request.params],
        ['querystring', request.query],
        ['body', request.body],
      ];
      for (const [where, value] of parts) {
        const path = nulPath(value, where, 0);
        if (path) throw new AppError('VALIDATION_FAILED', `${path} contains the NUL character (U+0000), which cannot be stored`);
      }
    });
  },
  { name: 'no-nul-text', dependencies: ['errors'] },
);
