/**
 * A file in web/src/features/<A>/ may not import from web/src/features/<B>/ (docs/architecture.md:
 * features never import each other; what two features share lives in web/src/lib or
 * web/src/components). Both spellings are resolved before comparing: the `@/` alias (web/src) and
 * relative paths, so `../../B/api/x` is caught as well as `@/features/B/api/x`.
 */
import path from 'node:path';

const FEATURES = `${path.sep}web${path.sep}src${path.sep}features${path.sep}`;

/** The feature an absolute path belongs to, or null outside web/src/features. */
function featureOf(file) {
  const at = file.lastIndexOf(FEATURES);
  if (at === -1) return null;
  return file.slice(at + FEATURES.length).split(path.sep)[0] || null;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports between dashboard features (web/src/features/*)' },
    schema: [],
    messages: {
      crossFeature:
        "Feature '{{from}}' may not import from feature '{{to}}'. Move what both need to web/src/lib or web/src/components.",
    },
  },
  create(context) {
    const filename = path.resolve(context.filename);
    const from = featureOf(filename);
    if (!from) return {};
    const srcRoot = filename.slice(0, filename.lastIndexOf(FEATURES) + FEATURES.length - 'features/'.length);

    function check(node) {
      const source = node?.type === 'Literal' && typeof node.value === 'string' ? node.value : null;
      if (!source) return;
      let target = null;
      if (source.startsWith('@/')) target = path.join(srcRoot, source.slice(2));
      else if (source.startsWith('.')) target = path.resolve(path.dirname(filename), source);
      if (!target) return;
      const to = featureOf(target.endsWith(path.sep) ? target : `${target}${path.sep}`);
      if (to && to !== from) context.report({ node, messageId: 'crossFeature', data: { from, to } });
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
