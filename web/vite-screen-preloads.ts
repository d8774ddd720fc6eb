import type { OutputBundle, OutputChunk, Plugin } from 'vite';

/** What the build writes beside index.html: the files each screen's code needs, and its translation namespaces, by route path. */
export const SCREEN_PRELOADS_FILE = 'screen-preloads.json';

interface ScreenPreload {
  files: string[];
  namespaces: string[];
  /** The server draws the screen into its page for a signed-in user (the route's `serverRendered: true`). */
  serverRendered?: true;
}

interface AstNode {
  type: string;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is AstNode => typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';

function* nodesOf(value: unknown): Generator<AstNode> {
  if (Array.isArray(value)) for (const item of value) yield* nodesOf(item);
  else if (isNode(value)) {
    yield value;
    for (const [key, child] of Object.entries(value)) if (key !== 'type' && typeof child === 'object') yield* nodesOf(child);
  }
}

const stringLiteral = (node: unknown): string | undefined =>
  isNode(node) && node.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined;

/** `serverRendered: true` among an options object's properties. */
const drawnOnServer = (node: unknown): boolean =>
  isNode(node) &&
  node.type === 'ObjectExpression' &&
  (node.properties as unknown[]).some(
    (property) => isNode(property) && isNode(property.key) && property.key.name === 'serverRendered' && isNode(property.value) && property.value.value === true,
  );

/**
 * `screen('imagesets', () => import('../pages/imagesets/image-sets-page'), pick, ['imagesets'], { serverRendered: true })`:
 * the path, the module it loads, the translation namespaces it loads beside it, and whether the server draws it.
 */
function screenCall(node: AstNode): { path: string; specifier: string; namespaces: string[]; serverRendered: boolean } | undefined {
  if (node.type !== 'CallExpression' || !isNode(node.callee) || node.callee.type !== 'Identifier' || node.callee.name !== 'screen') return undefined;
  const [pathArg, loadArg, , namespacesArg, optionsArg] = node.arguments as unknown[];
  const path = stringLiteral(pathArg);
  if (path === undefined || !isNode(loadArg) || loadArg.type !== 'ArrowFunctionExpression' || !isNode(loadArg.body)) return undefined;
  const specifier = loadArg.body.type === 'ImportExpression' ? stringLiteral(loadArg.body.source) : undefined;
  const namespaces =
    isNode(namespacesArg) && namespacesArg.type === 'ArrayExpression'
      ? (namespacesArg.elements as unknown[]).map(stringLiteral).filter((ns): ns is string => ns !== undefined)
      : [];
  return specifier === undefined ? undefined : { path, specifier, namespaces, serverRendered: drawnOnServer(optionsArg) };
}

/** The chunk and every chunk it imports statically, transitively: what loading it fetches. */
function closure(start: OutputChunk, bundle: OutputBundle): string[] {
  const seen = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (seen.has(fileName) || chunk?.type !== 'chunk') return;
    seen.add(fileName);
    chunk.imports.forEach(visit);
  };
  visit(start.fileName);
  return [...seen];
}

/**
 * A first load waits for the screen's code after the app's own has arrived and run; the server
 * can ask for it in the page instead, beside the app's code (`<link rel="modulepreload">`), once it
 * knows which files a screen needs. This plugin writes that down at build time: the route table's
 * `screen(path, () => import(module), pick, namespaces, options)` calls give each path its module,
 * its translation namespaces and whether the server draws it, the bundle gives the module's chunk
 * and the chunks it imports, less those the page loads anyway.
 * server/src/platform/http/web-app.ts reads the file.
 */
export function screenPreloads(routeTable: string): Plugin {
  const screens = new Map<string, { moduleId: string; namespaces: string[]; serverRendered: boolean }>();
  return {
    name: 'pim:screen-preloads',
    apply: 'build',
    enforce: 'post',
    async transform(code, id) {
      if (id !== routeTable) return null;
      for (const node of nodesOf(this.parse(code))) {
        const call = screenCall(node);
        if (!call) continue;
        const resolved = await this.resolve(call.specifier, id);
        if (resolved) screens.set(call.path, { moduleId: resolved.id, namespaces: call.namespaces, serverRendered: call.serverRendered });
      }
      if (screens.size === 0) this.error(`${routeTable} has no screen(path, () => import(module)) calls: the screen preloads would be empty`);
      return null;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file): file is OutputChunk => file.type === 'chunk');
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) return;
      const initial = new Set(closure(entry, bundle));
      const preloads: Record<string, ScreenPreload> = {};
      for (const [path, { moduleId, namespaces, serverRendered }] of screens) {
        const chunk = chunks.find((c) => c.facadeModuleId === moduleId) ?? chunks.find((c) => c.moduleIds.includes(moduleId));
        if (!chunk) continue;
        preloads[path] = { files: closure(chunk, bundle).filter((file) => !initial.has(file)), namespaces, ...(serverRendered && { serverRendered: true as const }) };
      }
      this.emitFile({ type: 'asset', fileName: SCREEN_PRELOADS_FILE, source: JSON.stringify(preloads) });
    },
  };
}
