// Preloaded with --import into a process under test: writes every module it loads to the file
// MODULE_TRACE_FILE names, one per line ("import <url>" for ES imports, dynamic ones included,
// "require <request>" for CommonJS requires). Worker threads run the same --import, so their
// modules are listed too.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const out = process.env.MODULE_TRACE_FILE;
if (!out) throw new Error('MODULE_TRACE_FILE is not set');
register('./hooks.mjs', import.meta.url, { data: { out } });

const load = Module._load;
Module._load = function (request, ...rest) {
  if (!request.startsWith('node:')) appendFileSync(out, `require ${request}\n`);
  return load.call(this, request, ...rest);
};
