// Codex's config.toml and requirements.toml, read far enough for self-protection: by tables. A table
// that names stallguard (its hook handler, with the `# stallguard` marker in the command; a plugin table
// named after it) is one of its entries, whole, together with the group table above a handler (which
// holds the matcher); the switches are `[features] hooks = false` (or its old name codex_hooks) and
// `allow_managed_hooks_only = true`. Any change to such a table's lines counts as a change to the entry.

export interface TomlHoldings {
  entries: Set<string>;
  offs: Set<string>;
}

/** A line without its comment and with its white space normalised; `#` inside a string is text. */
function clean(line: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      out += c;
      if (c === '\\' && quote === '"') out += line[++i] ?? '';
      else if (c === quote) quote = undefined;
    } else if (c === '#') break;
    else {
      if (c === '"' || c === "'") quote = c;
      out += c;
    }
  }
  return out.trim().replace(/\s*=\s*/, ' = ');
}

/**
 * A table header, its name's parts unquoted and spaces taken out:
 * `[[ hooks."PreToolUse".hooks ]]` is `[[hooks.PreToolUse.hooks]]`.
 */
function header(line: string): string | undefined {
  const m = /^(\[\[?)([^\]]*)(\]\]?)$/.exec(line);
  return m
    ? `${m[1]}${m[2]!
        .split('.')
        .map((p) => p.trim().replace(/^["']|["']$/g, ''))
        .join('.')}${m[3]}`
    : undefined;
}

export function tomlHoldings(text: string): TomlHoldings {
  const tables: { name: string; lines: string[] }[] = [{ name: '', lines: [] }];
  for (const raw of text.split('\n')) {
    const line = clean(raw);
    if (line === '') continue;
    const h = header(line);
    if (h) tables.push({ name: h, lines: [] });
    else tables.at(-1)!.lines.push(line);
  }
  const entries = new Set<string>();
  const offs = new Set<string>();
  tables.forEach((t, i) => {
    const name = t.name.replace(/^\[+|\]+$/g, '');
    if (/stallguard/i.test(t.name + '\n' + t.lines.join('\n'))) {
      // a handler's group is the closest table before it whose name
      // its own extends (hooks.PreToolUse for hooks.PreToolUse.hooks)
      const group = tables
        .slice(0, i)
        .reverse()
        .find((g) => g.name !== '' && name.startsWith(g.name.replace(/^\[+|\]+$/g, '') + '.'));
      entries.add(JSON.stringify([group?.name, group?.lines, t.name, t.lines]));
    }
    for (const line of t.lines) {
      if (
        (name === 'features' && /^(?:codex_)?hooks = false$/.test(line)) ||
        (name === '' && /^features\.(?:codex_)?hooks = false$/.test(line)) ||
        /^features = \{.*\b(?:codex_)?hooks\s*=\s*false/.test(line)
      )
        offs.add('features.hooks');
      if (/^(?:hooks\.)?allow_managed_hooks_only = true$/.test(line)) offs.add('allow_managed_hooks_only');
      if (/^["']?STALLGUARD_(?:MODE|HOME)["']? = /.test(line)) offs.add('STALLGUARD');
    }
  });
  return { entries, offs };
}
