# stallguard's first stage: hands one hook payload to the daemon (`stallguard serve`) with bash's own
# builtins, so that a hook event costs a round trip on 127.0.0.1 instead of a node start. The agents that
# run it (Codex, Gemini CLI, Copilot CLI, Qwen Code) run their hook commands with bash -c, and the command
# sources it there, which spares a second bash:
#
#   [ -f hook-client.sh ] && . hook-client.sh AGENT 2>/dev/null || node hook.cjs --agent AGENT --serve-port PORT
#
# It stands aside (returns 1, or exits 1 when run by itself), before anything is read from stdin, when no
# daemon of this STALLGUARD_HOME is up (no serve.pid naming a live process, nothing listening on its port)
# or the shell is not bash: the node hook after `||` then reads the payload, answers, and starts the daemon.
# Otherwise it exits 0, having printed exactly what the node hook would have: the daemon runs the same hook
# code on the same session log, in the environment this hook was given (the variables that change an
# answer travel as headers). Past the connection it fails open like the hook: whatever goes wrong, nothing
# is printed, the call goes on, and a line goes to errors.log. Written for bash 3.2 and later (macOS ships
# 3.2); it starts no process but cat for a long payload, and date for a line in errors.log.

[ -n "${BASH_VERSION-}" ] || { return 1; } 2>/dev/null || exit 1
agent=$1
home=${STALLGUARD_HOME:-$CLAUDE_PLUGIN_DATA}
mode=$STALLGUARD_MODE
case $home in
'') home=$HOME/.stallguard ;;
[[:space:]]* | *[[:space:]]) { return 1; } 2>/dev/null || exit 1 ;; # trimmed by the node hook: left to it
esac
case $mode in
off) exit 0 ;;
[[:space:]]* | *[[:space:]]) { return 1; } 2>/dev/null || exit 1 ;;
esac

{ read -r pid port _ <"$home/serve.pid" && kill -0 "$pid" && exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null ||
  { return 1; } 2>/dev/null || exit 1

failed() {
  printf '%s hook: %s; the call was let through; run: stallguard doctor\n' \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ 2>/dev/null)" "$1" >>"$home/errors.log" 2>/dev/null
  exit 0
}
trap '' PIPE

LC_ALL=C # from here on, a length is in bytes
# stdin may be a socket, which /dev/stdin cannot open; bash reads a pipe or a socket a byte at a time, which
# beats starting cat up to a few kilobytes: a longer payload's rest comes through cat
IFS= read -r -d '' -n 6000 body
[ "${#body}" -lt 6000 ] || body=$body$(cat)
# a line break in a JSON text is white space between its tokens (one within a string is written \n), so
# the payload goes on one line: bash writes to the socket line by line
body=${body//$'\n'/ }
nl=$'\r\n'
# the environment the answer depends on (src/core/hook-env.ts), a line break in a value dropped as
# Claude Code does; the request in one write, since small writes in a row can wait on the peer's ACK
env=
for name in STALLGUARD_HOME CLAUDE_PLUGIN_DATA HOME STALLGUARD_MODE CLAUDE_CONFIG_DIR CODEX_HOME; do
  value=${!name}
  env="$env"X-Stallguard-Env-$name": ${value//[$nl]/}"$'\r\n'
done
printf -v request 'POST /stallguard/%s HTTP/1.0\r\nHost: 127.0.0.1:%s\r\n%s\r\nContent-Length: %s\r\n%s\r\n' \
  "$agent" "$port" "Content-Type: application/json" "${#body}" "$env"
printf '%s' "$request$body" >&3 2>/dev/null ||
  failed "the daemon on port $port closed the connection before the payload was sent"

IFS= read -r -t 9 status <&3 || failed "the daemon on port $port did not answer within 9 s"
case $status in
'HTTP/1.1 200 '*) ;;
*) failed "the daemon on port $port answered ${status%$'\r'}" ;;
esac
length=
while IFS= read -r -t 9 line <&3 && [ "$line" != $'\r' ]; do
  case $line in [Cc]ontent-[Ll]ength:*) length=${line//[!0-9]/} ;; esac
done
# the body is as long as the header says (the daemon may go on recording the event before it closes the
# connection); bash 3.2, which cannot read a count of bytes, reads it to the end
out=
if [ "$length" = 0 ]; then :
elif [ "${BASH_VERSINFO[0]}" -ge 4 ] && [ -n "$length" ]; then IFS= read -r -d '' -N "$length" -t 9 out <&3
else IFS= read -r -d '' -t 9 out <&3; fi
[ $? -gt 128 ] && failed "the daemon on port $port did not finish its answer within 9 s"
[ "${#out}" = "$length" ] ||
  failed "the daemon on port $port sent ${#out} bytes of an answer of ${length:-unknown} bytes"
[ -n "$out" ] && printf '%s\n' "$out"
exit 0
