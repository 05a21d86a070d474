import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { guardCall, type GuardContext } from './guard.ts';

// Every way we know for an agent to switch the guard off, each of which must be denied, beside the
// ordinary work next to the same files, none of which may be.

const LINKS: Record<string, string> = {
  '/home/dev/proj/notes.txt': '/home/dev/.claude/settings.json',
  '/home/dev/proj/cfg': '/home/dev/.claude',
  '/home/dev/.claude/settings.json': '/home/dev/dotfiles/claude/settings.json',
};

const ctx: GuardContext = {
  cwd: '/home/dev/proj',
  home: '/home/dev',
  stallguardHome: '/home/dev/.stallguard',
  selfDir: '/opt/stallguard/dist',
  nodePath: '/usr/local/bin/node',
  configDirs: ['/home/dev/.config/claude', '/srv/codex'],
  // a symbolic link, or a path under a linked folder
  realpath: (abs) => {
    for (const [from, to] of Object.entries(LINKS)) if (abs === from || abs.startsWith(from + '/')) return to + abs.slice(from.length);
    return undefined;
  },
};

const sh = (command: string): [string, Record<string, unknown>] => ['Bash', { command }];

const DENIED: [string, [string, Record<string, unknown>]][] = [
  // file tools of every agent, on every scope of every agent's hook settings
  ['Claude Edit of project settings', ['Edit', { file_path: '/home/dev/proj/.claude/settings.json', old_string: 'a', new_string: 'b' }]],
  ['Claude Write of local settings', ['Write', { file_path: '.claude/settings.local.json', content: '{}' }]],
  ['Claude MultiEdit of user settings', ['MultiEdit', { file_path: '~/.claude/settings.json', edits: [{ old_string: 'a', new_string: 'b' }] }]],
  ['Claude NotebookEdit under STALLGUARD_HOME', ['NotebookEdit', { notebook_path: '/home/dev/.stallguard/x.ipynb', new_source: '' }]],
  ['managed settings (Linux)', ['Write', { file_path: '/etc/claude-code/managed-settings.json', content: '{}' }]],
  ['managed settings (macOS)', ['Write', { file_path: '/Library/Application Support/ClaudeCode/managed-settings.json', content: '{}' }]],
  ['a Claude plugin install record', ['Write', { file_path: '/home/dev/.claude/plugins/installed_plugins.json', content: '{}' }]],
  ['settings in CLAUDE_CONFIG_DIR', ['Write', { file_path: '/home/dev/.config/claude/settings.json', content: '{}' }]],
  ['Codex hooks.json (project)', ['apply_patch', { command: '*** Begin Patch\n*** Update File: .codex/hooks.json\n@@\n-x\n+y\n*** End Patch' }]],
  ['Codex config.toml in CODEX_HOME', ['apply_patch', { command: '*** Begin Patch\n*** Add File: /srv/codex/config.toml\n+[features]\n+hooks = false\n*** End Patch' }]],
  ['a patch moving a file over Codex hooks', ['apply_patch', { command: '*** Begin Patch\n*** Update File: a.json\n*** Move to: /home/dev/.codex/hooks.json\n*** End Patch' }]],
  ['Gemini write_file of project settings', ['write_file', { file_path: '/home/dev/proj/.gemini/settings.json', content: '{}' }]],
  ['Gemini replace in user settings', ['replace', { file_path: '/home/dev/.gemini/settings.json', old_string: 'a', new_string: 'b' }]],
  ['a Gemini extension file', ['write_file', { file_path: '/home/dev/.gemini/extensions/stallguard/hooks/hooks.json', content: '{}' }]],
  ['Cursor Write of project hooks', ['Write', { file_path: '.cursor/hooks.json', content: '{}' }]],
  ['Cursor Delete of user hooks', ['Delete', { path: '/home/dev/.cursor/hooks.json' }]],
  ['Cursor enterprise hooks', ['Write', { file_path: '/etc/cursor/hooks.json', content: '{}' }]],
  ['Copilot create of repository hooks', ['create', { path: '.github/hooks/guard.json', file_text: '{}' }]],
  ['the opencode plugin file', ['edit', { filePath: '.opencode/plugins/stallguard.js', oldString: 'export', newString: '// export' }]],
  ["opencode's user plugin folder", ['write', { filePath: '/home/dev/.config/opencode/plugins/stallguard.js', content: '' }]],
  ['the pi extension file', ['bash', { command: 'rm .pi/extensions/stallguard.js' }]],
  ["pi's user extension folder", ['bash', { command: 'rm -rf ~/.pi/agent/extensions' }]],
  ['Copilot edit given as a JSON string', ['edit', '{"path": ".github/hooks/stallguard.json", "old_str": "a", "new_str": "b"}' as unknown as Record<string, unknown>]],
  ['an MCP file tool', ['mcp__filesystem__write_file', { path: '/home/dev/proj/.claude/settings.json', content: '{}' }]],
  ['an MCP move', ['mcp__fs__move_file', { source: '/tmp/x.json', destination: '/home/dev/.claude/settings.json' }]],
  ['a Windows path', ['Write', { file_path: 'C:\\Users\\dev\\.claude\\settings.json', content: '{}' }]],
  ['a path with dot segments', ['Edit', { file_path: '/home/dev/proj/src/../.claude/./settings.json', old_string: 'a', new_string: 'b' }]],
  ['a symbolic link to the settings', ['Write', { file_path: 'notes.txt', content: '{}' }]],
  ['a file under a linked folder', ['Write', { file_path: 'cfg/settings.json', content: '{}' }]],
  // stallguard's own configuration, state and code
  ['the project config', ['Write', { file_path: '.stallguard.json', content: '{"mode":"off"}' }]],
  ['the user config', ['Write', { file_path: '/home/dev/.stallguard/config.json', content: '{}' }]],
  ['the ledger', ['Write', { file_path: '/home/dev/.stallguard/sessions/s1.jsonl', content: '' }]],
  ['the hook bundle', ['Write', { file_path: '/opt/stallguard/dist/hook.cjs', content: '' }]],
  ["stallguard's plugin hooks", ['Edit', { file_path: '/opt/stallguard/hooks/hooks.json', old_string: 'a', new_string: 'b' }]],
  ['the node binary the hook runs', ['Write', { file_path: '/usr/local/bin/node', content: '' }]],
  ['STALLGUARD_MODE into a shell startup file', ['Edit', { file_path: '/home/dev/.bashrc', old_string: '# end', new_string: 'export STALLGUARD_MODE=off\n# end' }]],
  ['STALLGUARD_HOME into .envrc', ['Write', { file_path: '.envrc', content: 'STALLGUARD_HOME=/tmp/elsewhere\n' }]],

  // shell: file programs
  ['rm', sh('rm .claude/settings.json')],
  ['rm -rf of the folder', sh('rm -rf .claude')],
  ['rm -rf of STALLGUARD_HOME by variable', sh('rm -rf "$STALLGUARD_HOME"')],
  ['rm -rf of a folder that holds the settings', sh('rm -rf ~')],
  ['rm -rf of the project folder', sh('cd .. && rm -rf proj')],
  ['rm through a glob', sh('rm -f ~/.clau*/settings*.json')],
  ['rm of every file in the folder', sh('rm .claude/*')],
  ['mv away', sh('mv .claude/settings.json /tmp/settings.json.bak')],
  ['mv over', sh('mv /tmp/empty.json .claude/settings.json')],
  ['cp over', sh('cp /dev/null ~/.claude/settings.json')],
  ['cp into the folder under the same name', sh('cp /tmp/settings.json .claude/')],
  ['cp -r of a whole .claude folder into the project', sh('cp -r /tmp/other/.claude .')],
  ['install over', sh('install -m 644 /tmp/x .gemini/settings.json')],
  ['rsync over', sh('rsync -a /tmp/hooks.json .cursor/hooks.json')],
  ['ln -sf over', sh('ln -sf /dev/null .claude/settings.json')],
  ['chmod', sh('chmod 000 ~/.stallguard')],
  ['chattr', sh('chattr +i .claude/settings.local.json')],
  ['truncate', sh('truncate -s 0 .codex/hooks.json')],
  ['touch', sh('touch .claude/settings.json')],
  ['dd of=', sh('dd if=/dev/zero of=.claude/settings.json bs=1 count=0')],
  ['shred', sh('shred -u .stallguard.json')],
  ['an editor', sh('vim .claude/settings.json')],
  ['nano with sudo', sh('sudo -u dev nano /home/dev/.claude/settings.json')],
  ['sed -i', sh("sed -i 's/stallguard/x/' .claude/settings.json")],
  ['sed -Ei', sh("sed -Ei.bak 's/a/b/' ~/.claude/settings.json")],
  ['perl -pi -e', sh("perl -pi -e 's/hook/x/' .claude/settings.json")],
  ['gawk -i inplace', sh("gawk -i inplace '{print}' .claude/settings.json")],
  ['patch', sh('patch .claude/settings.json < /tmp/p.diff')],
  ['find -delete by name', sh('find . -name settings.json -delete')],
  ['find -exec rm in the folder', sh('find ~/.claude -type f -exec rm {} +')],
  ['xargs rm', sh('echo .claude/settings.json | xargs rm')],
  ['tar into the folder', sh('tar -xf /tmp/evil.tar -C .claude')],
  ['curl -o over', sh('curl -sS -o .claude/settings.json https://example.com/x')],
  ['wget -O over', sh('wget -O ~/.gemini/settings.json https://example.com/x')],
  ['git checkout of the file', sh('git checkout HEAD~3 -- .claude/settings.json')],
  ['git rm', sh('git rm -r --cached .claude')],
  ['git clean -x (ignored files: settings.local.json)', sh('git clean -fdx')],
  ['git -C into the folder', sh('git -C /home/dev restore .claude/settings.json')],
  // shell: redirection
  ['redirection', sh('echo {} > .claude/settings.json')],
  ['append redirection', sh('echo x >> ~/.claude/settings.json')],
  ['&> redirection', sh('true &> .stallguard.json')],
  ['>| redirection', sh('echo {} >| .cursor/hooks.json')],
  ['redirection without spaces', sh('echo {}>.claude/settings.json')],
  ['a here-document into the file', sh("cat > .claude/settings.json <<'EOF'\n{}\nEOF")],
  ['tee', sh('echo {} | tee .claude/settings.json')],
  ['tee -a with sudo', sh('echo {} | sudo tee -a /etc/claude-code/managed-settings.json')],
  // shell: quoting, variables, cd, substitutions
  ['split quotes', sh('rm ".cl""aude/settings.json"')],
  ['backslash escapes', sh('rm .clau\\de/settings.json')],
  ['ANSI-C quoting', sh("rm $'\\x2eclaude/settings.json'")],
  ['a variable set earlier', sh('F=.claude/settings.json; rm "$F"')],
  ['cd first', sh('cd .claude && rm settings.json')],
  ['cd into a linked folder', sh('cd cfg; rm settings.json')],
  ['inside $(...)', sh('echo $(rm .claude/settings.json)')],
  ['inside backticks', sh('echo `rm ~/.stallguard/config.json`')],
  ['a subshell', sh('(cd .claude; rm settings.json)')],
  ['after ; and ||', sh('true; false || rm .claude/settings.json')],
  ['in an if', sh('if true; then rm .claude/settings.json; fi')],
  ['timeout wrapper', sh('timeout 5 rm .claude/settings.json')],
  ['env wrapper', sh('env -i PATH=/bin rm .claude/settings.json')],
  ['nohup wrapper', sh('nohup rm .claude/settings.json &')],
  ['a name known only at run time', sh('rm "$(echo .claude)/settings.json"')],
  // shell: nested shells and interpreters
  ['sh -c', sh("sh -c 'rm .claude/settings.json'")],
  ['bash -c with cd', sh('bash -c "cd ~/.claude && rm settings.json"')],
  ['eval', sh('eval "rm .claude/settings.json"')],
  ['a here-document fed to bash', sh('bash <<EOF\nrm .claude/settings.json\nEOF')],
  ['a here-string fed to sh', sh('sh <<< "rm .codex/hooks.json"')],
  ['echo piped into sh', sh("echo 'rm .claude/settings.json' | sh")],
  ['base64 piped into a shell', sh(`echo ${Buffer.from('rm .claude/settings.json').toString('base64')} | base64 -d | bash`)],
  ['python -c', sh(`python3 -c "open('.claude/settings.json','w').write('{}')"`)],
  ['python with pathlib and the home folder', sh(`python3 -c "import pathlib; (pathlib.Path.home()/'.claude'/'settings.json').write_text('{}')"`)],
  ['python in a here-document', sh(`python3 - <<'PY'\nimport os\nos.remove(os.path.expanduser('~/.stallguard/config.json'))\nPY`)],
  ['node -e', sh(`node -e "require('fs').writeFileSync('.claude/settings.json', '{}')"`)],
  ['node -e rmSync', sh(`node -e "require('fs').rmSync(process.env.HOME + '/.stallguard', { recursive: true })"`)],
  ['perl -e unlink', sh(`perl -e 'unlink ".claude/settings.json"'`)],
  ['ruby -e', sh(`ruby -e 'File.write(".claude/settings.json", "{}")'`)],
  ['awk writing a file', sh(`awk 'BEGIN { print "{}" > ".claude/settings.json" }'`)],
  ['a shell-out from python', sh(`python3 -c "import os; os.system('rm .codex/hooks.json')"`)],
  // shell: switches
  ['STALLGUARD_MODE=off for a command', sh('STALLGUARD_MODE=off claude -p "go on"')],
  ['export STALLGUARD_MODE', sh('export STALLGUARD_MODE=off')],
  ['unset STALLGUARD_MODE', sh('unset STALLGUARD_MODE')],
  ['STALLGUARD_HOME elsewhere', sh('STALLGUARD_HOME=/tmp/x npm test')],
  ['into a startup file', sh(`echo 'export STALLGUARD_MODE=off' >> ~/.zshrc`)],
  ['env in python', sh(`python3 -c "import os; os.environ['STALLGUARD_MODE'] = 'off'"`)],
  ['PowerShell env', ['PowerShell', { command: "$env:STALLGUARD_MODE = 'off'" }]],
  ['disableAllHooks through claude config', sh('claude config set -g disableAllHooks true')],
  ['disableAllHooks through jq', sh(`jq '.disableAllHooks = true' .claude/settings.json | sponge .claude/settings.json`)],
  ['stallguard uninstall', sh('npx stallguard uninstall --scope user')],
  ['npm rm -g stallguard', sh('npm rm -g stallguard')],
  ['the Claude plugin disabled', sh('claude plugin disable stallguard@stallguard')],
  ['the Gemini extension uninstalled', sh('gemini extensions uninstall stallguard')],
  // other shells and agents' shell tools
  ['PowerShell Remove-Item', ['PowerShell', { command: 'Remove-Item -Force .claude\\settings.json' }]],
  ['PowerShell Set-Content', ['powershell', { command: "Set-Content -Path $env:USERPROFILE\\.claude\\settings.json -Value '{}'" }]],
  ['Gemini run_shell_command', ['run_shell_command', { command: 'rm .gemini/settings.json', description: 'x' }]],
  ['Codex exec with an argv list', ['exec_command', { command: ['bash', '-lc', 'rm ~/.codex/hooks.json'] }]],
  ['Cursor Shell', ['Shell', { command: 'rm .cursor/hooks.json' }]],
  ['Copilot bash', ['bash', { command: 'rm .github/hooks/stallguard.json' }]],
  ['an MCP shell tool', ['mcp__terminal__execute_command', { command: 'rm .claude/settings.json' }]],
];

const ALLOWED: [string, [string, Record<string, unknown>]][] = [
  ['an ordinary edit', ['Edit', { file_path: '/home/dev/proj/src/app.ts', old_string: 'a', new_string: 'b' }]],
  ['a subagent definition beside the settings', ['Edit', { file_path: '/home/dev/proj/.claude/agents/reviewer.md', old_string: 'a', new_string: 'b' }]],
  ['a slash command beside the settings', ['Write', { file_path: '.claude/commands/deploy.md', content: 'x' }]],
  ['CLAUDE.md', ['Write', { file_path: 'CLAUDE.md', content: 'x' }]],
  ['a settings.json of the app', ['Write', { file_path: 'config/settings.json', content: '{}' }]],
  ['a GitHub workflow', ['Write', { file_path: '.github/workflows/ci.yml', content: 'x' }]],
  ['notes in the hooks folder', ['Write', { file_path: '.github/hooks/README.md', content: 'x' }]],
  ['a Gemini context file', ['Write', { file_path: '.gemini/GEMINI.md', content: 'x' }]],
  ['a Cursor rule', ['Write', { file_path: '.cursor/rules/style.mdc', content: 'x' }]],
  ['hooks.json of another project', ['Write', { file_path: 'hooks/hooks.json', content: '{}' }]],
  ['a shell startup file without stallguard', ['Edit', { file_path: '/home/dev/.bashrc', old_string: 'a', new_string: 'export PATH=$PATH:/opt/bin' }]],
  ['docs that mention the variable', ['Edit', { file_path: 'README.md', old_string: 'a', new_string: 'STALLGUARD_MODE=enforce in the agent environment' }]],
  ['a test that sets STALLGUARD_HOME in code', ['Write', { file_path: 'test/x.test.ts', content: 'const env = { STALLGUARD_HOME: home };' }]],
  ['TodoWrite', ['TodoWrite', { todos: [{ content: '.claude/settings.json', status: 'pending' }] }]],
  ['reading the settings', ['Read', { file_path: '/home/dev/proj/.claude/settings.json' }]],
  ['an MCP read', ['mcp__filesystem__read_file', { path: '/home/dev/.claude/settings.json' }]],
  ['cat of the settings', sh('cat .claude/settings.json')],
  ['jq of the settings', sh('jq .hooks .claude/settings.json')],
  ['grep in the folder', sh('grep -rn hooks .claude ~/.stallguard')],
  ['a backup copy of the settings', sh('cp .claude/settings.json /tmp/settings.backup.json')],
  ['git diff and add of the settings', sh('git diff .claude/settings.json && git add .claude/settings.json')],
  ['git checkout of the tree', sh('git checkout . && git stash')],
  ['git clean without -x', sh('git clean -fd')],
  ['a redirect beside the folder', sh('npm test > .claude/../test-output.log 2>&1')],
  ['a new file in the agents folder', sh('touch .claude/agents/new.md && mkdir -p .claude/commands')],
  ['moving a subagent definition', sh('mv .claude/agents/a.md .claude/agents/b.md')],
  ['rm of node_modules', sh('rm -rf node_modules dist build')],
  ['rm of a glob in the project', sh('rm -rf ./* /tmp/sg-*')],
  ['find -delete of caches', sh("find . -name '*.pyc' -delete")],
  ['sed -i of app code', sh("sed -i 's/a/b/' src/settings.json")],
  ['python reading the settings', sh(`python3 -c "import json; print(json.load(open('.claude/settings.json')))"`)],
  ['node writing elsewhere', sh(`node -e "require('fs').writeFileSync('out.json', '{}')"`)],
  ['reading the variable', sh('echo "$STALLGUARD_MODE"')],
  ['stallguard status and report', sh('npx stallguard status && npx stallguard report --learnings')],
  ['uninstalling another package', sh('npm uninstall left-pad')],
  ['an env var for tests', sh('NODE_ENV=test npm test')],
  ['xargs rm of other files', sh("find . -name '*.tmp' | xargs rm -f")],
  ['a here-document of docs mentioning rm', sh("cat > notes.md <<'EOF'\nrm .claude/settings.json removes the hook\nEOF")],
  ['a quoted separator', sh(`echo 'a; rm .claude/settings.json' > out.txt`)],
  ['a comment', sh('ls # rm .claude/settings.json')],
  ['cd then ordinary work', sh('cd .claude && ls && cd .. && rm -f tmp.txt')],
  ['PowerShell ordinary work', ['PowerShell', { command: 'Remove-Item -Recurse build' }]],
  ['Codex exec of tests', ['exec_command', { command: ['bash', '-lc', 'npm test'] }]],
];

describe('self-protection', () => {
  for (const [name, [tool, input]] of DENIED) {
    it(`denies ${name}`, () => assert.ok(guardCall({ name: tool, input }, ctx), `${tool} ${JSON.stringify(input)}`));
  }
  for (const [name, [tool, input]] of ALLOWED) {
    it(`allows ${name}`, () => assert.equal(guardCall({ name: tool, input }, ctx), undefined, `${tool} ${JSON.stringify(input)}`));
  }

  it('from a folder that is not a build folder (the Gemini extension, a copied bundle), protects the bundle and the extension, not the folder', () => {
    const loose: GuardContext = { ...ctx, selfDir: '/tmp' };
    assert.ok(guardCall({ name: 'Bash', input: { command: 'rm /tmp/hook.cjs' } }, loose));
    assert.ok(guardCall({ name: 'Write', input: { file_path: '/tmp/gemini-extension.json', content: '{}' } }, loose));
    assert.ok(guardCall({ name: 'Write', input: { file_path: '/tmp/hooks/hooks.json', content: '{}' } }, loose));
    for (const command of ['npm test 2>&1 | tee /tmp/out.log', 'tar -xzf x.tgz -C /tmp', `python3 -c "open('/tmp/x.txt', 'w').write('x')"`, 'rm -rf /tmp/build-123']) {
      assert.equal(guardCall({ name: 'Bash', input: { command } }, loose), undefined, command);
    }
  });

  it('names the protected file it found', () => {
    assert.deepEqual(guardCall({ name: 'Bash', input: { command: 'cd .claude && rm settings.json' } }, ctx), { code: 'SELF_PROTECT', path: '/home/dev/proj/.claude/settings.json' });
  });

  it('stays linear on huge and hostile commands', { timeout: 30_000 }, () => {
    // a regular expression that backtracks would take minutes here
    for (const command of ['export '.repeat(200_000), 'a'.repeat(2_000_000), '$('.repeat(100_000), "'".repeat(500_001), '.claude'.repeat(200_000), 'open(' + 'x'.repeat(1_000_000)]) {
      guardCall({ name: 'Bash', input: { command } }, ctx);
      guardCall({ name: 'python3', input: { command: `python3 -c "${command}"` } }, ctx);
    }
  });
});
