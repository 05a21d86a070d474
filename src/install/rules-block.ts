// The rules go into CLAUDE.md / AGENTS.md between markers, so install can update them and uninstall can
// take out exactly that block.

const BEGIN = '<!-- stallguard:rules -->';
const END = '<!-- /stallguard:rules -->';
const BLOCK = new RegExp(`\\n*${BEGIN}[\\s\\S]*?${END}\\n?`);

export function addRules(text: string, rules: string): string {
  const block = `${BEGIN}\n${rules}\n${END}\n`;
  if (BLOCK.test(text)) return text.replace(BLOCK, (m) => (m.startsWith('\n') ? '\n\n' : '') + block);
  if (text.length === 0) return block;
  return text.replace(/\n*$/, '\n\n') + block;
}

export function removeRules(text: string): string {
  return text.replace(BLOCK, '\n').replace(/\n+$/, '\n').replace(/^\n$/, '');
}
