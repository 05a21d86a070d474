// Claude Code's events after a call (PostToolUseFailure, PostToolBatch) reach the daemon through its http hook
// alone (install/claude.ts): a daemon gone idle while a call waited (a permission prompt left open over lunch)
// would miss that call's result. So it stays while a turn is open, however long the pause, up to a bound for a
// session that was killed in the middle of a turn and will never send its Stop.

/** How long a turn with no event stays open. */
export const TURN_MAX_MS = 6 * 3_600_000;
/** Where a payload names its event and session: its first fields, whatever follows (a batch's results). */
const HEAD = 4096;
const EVENT = /"hook_event_name"\s*:\s*"(\w+)"/;
const SESSION = /"session_id"\s*:\s*"([^"\\]{1,200})"/;

export class OpenTurns {
  private readonly open = new Map<string, number>();

  /** Notes a Claude Code payload: a Stop ends its session's turn, a subagent's stop none, any other event opens one. */
  note(payload: string, now: number): void {
    const head = payload.slice(0, HEAD);
    const event = EVENT.exec(head)?.[1];
    const session = SESSION.exec(head)?.[1];
    if (event === undefined || session === undefined || event === 'SubagentStop') return;
    if (event === 'Stop' || event === 'SessionEnd') this.open.delete(session);
    else this.open.set(session, now);
  }

  /** Whether a turn is open: one with an event in the last TURN_MAX_MS (older ones are forgotten). */
  any(now: number): boolean {
    for (const [session, at] of this.open) if (now - at > TURN_MAX_MS) this.open.delete(session);
    return this.open.size > 0;
  }
}
