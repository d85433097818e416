/**
 * Layers point one way (docs/architecture.md "Layers"): `server/` never imports `bot/`, and
 * `server/lib/` imports nothing above it. Each relative import (static, re-export or dynamic) is
 * resolved against the importing file, then checked against the folders the options name, as paths
 * from the repository root (ESLint's working directory):
 *
 * - `forbid`: folders this file may not import from;
 * - `allow`: when given, the only folders of the repository this file may import from.
 *
 * Package imports (`fastify`, `node:fs`) are not the rule's business.
 */
import path from 'node:path';

const asFolder = (p) => (p.endsWith('/') ? p : `${p}/`);
const within = (file, folder) => file === folder.slice(0, -1) || file.startsWith(folder);

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Keep imports within the layers docs/architecture.md draws' },
    schema: [
      {
        type: 'object',
        properties: {
          allow: { type: 'array', items: { type: 'string' } },
          forbid: { type: 'array', items: { type: 'string' } },
          because: { type: 'string' },
        },
        required: ['because'],
        additionalProperties: false,
      },
    ],
    messages: { outside: "'{{source}}' ({{target}}) is outside what this file may import: {{because}}." },
  },
  create(context) {
    const options = context.options[0] ?? { because: '' };
    const root = context.cwd;
    const filename = path.resolve(context.filename);
    const allow = options.allow?.map(asFolder) ?? null;
    const forbid = (options.forbid ?? []).map(asFolder);

    function check(node) {
      const source = node?.type === 'Literal' && typeof node.value === 'string' ? node.value : null;
      if (!source || !source.startsWith('.')) return;
      const target = path.relative(root, path.resolve(path.dirname(filename), source)).split(path.sep).join('/');
      // Outside the repository (or not resolvable against it): nothing to say.
      if (target.startsWith('..')) return;
      const refused = forbid.some((folder) => within(target, folder)) || (allow !== null && !allow.some((folder) => within(target, folder)));
      if (refused) context.report({ node, messageId: 'outside', data: { source, target, because: options.because } });
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
