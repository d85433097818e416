// The ES module hooks of preload.mjs (they run on the loader's own thread).
import { appendFileSync } from 'node:fs';

let out = '';
export function initialize(data) {
  out = data.out;
}
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (!resolved.url.startsWith('node:')) appendFileSync(out, `import ${resolved.url}\n`);
  return resolved;
}
