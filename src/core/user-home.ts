// The user's home folder: $HOME where it is set (what node:os answers then too), else node:os's answer.
// node:os is loaded only in that case: it is not in node's start-up snapshot, and loading it costs every
// hook process about 1 ms. process.getBuiltinModule is Node 20.16+; before it, the bundle's own require.
const os = () => process.getBuiltinModule?.('node:os') ?? (require('node:os') as typeof import('node:os'));

export function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME || os().homedir();
}
