// stallguard in a custom agent loop. Run it: npm run build && node examples/custom-agent-loop.mjs
//
// The world is a maze in which every door leads back to the same room. The "model" is stuck on one idea:
// it opens door A, then door B, then A again, and sees the same room each time. stallguard watches each
// call through createDetector().observe() and tells the loop what to do: after a few identical rounds (five
// at most) it nudges (the loop puts that text in front of the model), may refuse a call that goes straight
// back into the loop, and when the model stalls again it stops it.

import { createDetector } from 'stallguard';

const ROOM = 'a small grey room with doors A and B';

/** The world: the result of a tool call. */
function act(call) {
  return `You open door ${call.input.door} and find yourself in ${ROOM}.`;
}

/** The model: picks the next tool call from what it has read so far (here, without learning from it). */
function* stubbornModel(_context) {
  for (;;) {
    yield { name: 'open_door', input: { door: 'A' } };
    yield { name: 'open_door', input: { door: 'B' } };
  }
}

export function runAgent({ log = console.log, maxTurns = 100 } = {}) {
  const detector = createDetector();
  const session = 'maze-1';
  const agent = { id: 'main' };
  const context = ['Find the way out of the maze.'];
  detector.observe({ session, agent, kind: 'prompt', prompt: context[0] });

  const model = stubbornModel(context);
  for (let turn = 1; turn <= maxTurns; turn++) {
    const call = model.next().value;
    // before the call runs: stallguard may refuse it (the loop it just flagged, a protected file, a
    // spawn too many), or the agent may be stopped already
    const before = detector.observe({ session, agent, kind: 'pre-tool', call });
    if (before.action === 'stop') {
      log(`turn ${turn}: stopped for the person: ${before.stopReason}`);
      return { turns: turn, stopped: true };
    }
    if (before.action === 'deny') {
      log(`turn ${turn}: refused: ${before.message}`);
      context.push(before.message); // the model reads it instead of a result
      continue;
    }
    const output = act(call);
    context.push(output);
    // after it ran: the outcome decides whether this is a loop
    const after = detector.observe({ session, agent, kind: 'post-tool', call, output, ok: true });
    if (after.action === 'nudge') {
      log(`turn ${turn}: nudged: ${after.message}`);
      context.push(after.message); // the model reads it beside the tool result
    } else if (after.action === 'stop') {
      log(`turn ${turn}: stopped for the person: ${after.stopReason}`);
      return { turns: turn, stopped: true };
    }
  }
  return { turns: maxTurns, stopped: false };
}

if (import.meta.url === new URL(`file://${process.argv[1]}`).href) runAgent();
