import type { GuardHit } from '../types.ts';

// The deny message of self-protection. It goes to the agent, which passes it on: so it says what was
// refused and why, that the agent must not look for another way, and how the person can make the change
// themselves (the file, or the command to run in their own terminal).

const NO_DETOUR = 'Do not look for another way to make this change; tell the person.';

export function selfProtectMessage(hit: GuardHit): string {
  const { path, command } = hit;
  switch (hit.kind) {
    case 'entry':
      return (
        `stallguard: this call would change stallguard's own entries in ${path} (its hooks, ` +
        'or a setting named after it), which an agent cannot change while stallguard enforces. ' +
        'Edits elsewhere in that file are fine when they leave those entries ' +
        `as they are (the hook commands ending in "# stallguard"). ${NO_DETOUR} ` +
        `The person can make the change themselves: edit ${path} in their own editor` +
        `${command ? `, or run \`${command}\` in their own terminal to take stallguard out first` : ''}.`
      );
    case 'switch':
      if (path === 'disableAllHooks')
        return (
          `stallguard: this call would turn every hook off (disableAllHooks), stallguard's ` +
          `among them, which an agent cannot do while stallguard enforces. ${NO_DETOUR} ` +
          `The person can set it themselves, in their agent's settings file.`
        );
      return path.startsWith('/') || path.includes('.')
        ? `stallguard: this call would turn hooks off in ${path}, stallguard's among ` +
            `them, which an agent cannot do while stallguard enforces. ${NO_DETOUR} The ` +
            `person can make the change themselves: edit ${path} in their own editor.`
        : `stallguard: this call would switch stallguard off (${path}), ` +
            `which an agent cannot do while stallguard enforces. ${NO_DETOUR} ` +
            'The person can do it themselves: start the agent with STALLGUARD_MODE=off ' +
            'from their own terminal, or set "mode": "shadow" in .stallguard.json.';
    case 'uninstall':
      return (
        'stallguard: this call would uninstall or disable stallguard, which an ' +
        `agent cannot do while stallguard enforces. ${NO_DETOUR} The person can ` +
        `run it themselves in their own terminal${command ? `: \`${command}\`` : ''}.`
      );
    case 'own':
      return (
        `stallguard: this call would change ${path}, which is stallguard's own configuration, state ` +
        `or installed code, and an agent cannot change it while stallguard enforces. ${NO_DETOUR} ` +
        `The person can make the change themselves, in their own editor or terminal (the file: ${path}).`
      );
    default:
      // a ledger written before the kinds were recorded
      return (
        `stallguard: this call would change ${path}, which holds stallguard's configuration or an agent's ` +
        'hook settings; those are protected while stallguard is enforcing. Leave them to the person.'
      );
  }
}
