// Module hooks for worker threads started from the TypeScript sources (tests): `./x.js` imports
// resolve to `./x.ts` when only the source exists, `@pim/contract` to its source (as Vitest's
// alias does), and .ts files are transpiled one by one (types erased, nothing checked).
import { readFile } from 'node:fs/promises';
import ts from 'typescript';

const contractSource = new URL('../../../../contract/src/index.ts', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === '@pim/contract') return next(contractSource, context);
  try {
    return await next(specifier, context);
  } catch (err) {
    const relative = specifier.startsWith('.') || specifier.startsWith('file:');
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !relative || !specifier.endsWith('.js')) throw err;
    return next(`${specifier.slice(0, -3)}.ts`, context);
  }
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const source = await readFile(new URL(url), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: url,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      sourceMap: false,
    },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
