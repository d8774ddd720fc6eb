/**
 * A module of ours that a thread or a process of its own runs: `name` beside the module at
 * `from` (its `import.meta.url`), built (`.js`); or, when our sources run as TypeScript under
 * Vitest, the `.ts` source, which plain Node loads through a small transpiling loader.
 */
export function ownEntry(name: string, from: string): { url: URL; execArgv: string[] } {
  const fromSource = from.endsWith('.ts');
  return {
    url: new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, from),
    execArgv: fromSource ? ['--import', new URL('./ts-register.mjs', import.meta.url).href] : [],
  };
}
