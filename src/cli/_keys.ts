// Answers typed by a person, one key at a time: in a terminal each key press counts at once (raw mode, no
// Enter needed); from a pipe or a file each line's first character is the answer, so a script or a test can
// drive the same questions. Ctrl-C, Ctrl-D and the end of the input are "quit".

export interface Keys {
  /** The next key, lower-cased; undefined at the end of the input. */
  next(): Promise<string | undefined>;
  close(): void;
}

export function keyReader(input: NodeJS.ReadStream): Keys {
  const queue: (string | undefined)[] = [];
  let waiting: ((k: string | undefined) => void) | undefined;
  const push = (k: string | undefined) => {
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w(k);
    } else queue.push(k);
  };
  const raw = input.isTTY === true && typeof input.setRawMode === 'function';
  let carry = '';
  const onData = (chunk: Buffer | string) => {
    const text = chunk.toString();
    if (raw) {
      // arrow and function keys arrive as escape sequences: no answer (a lone Escape is "quit")
      if (text.startsWith('\u001b') && text.length > 1) return;
      for (const ch of text) push(ch === '\u0003' || ch === '\u0004' ? 'q' : ch === '\u001b' ? 'q' : ch.toLowerCase());
      return;
    }
    carry += text;
    for (let nl = carry.indexOf('\n'); nl !== -1; nl = carry.indexOf('\n')) {
      const line = carry.slice(0, nl).trim();
      carry = carry.slice(nl + 1);
      if (line) push(line[0]!.toLowerCase());
    }
  };
  const onEnd = () => {
    if (carry.trim()) push(carry.trim()[0]!.toLowerCase());
    carry = '';
    push(undefined);
  };
  if (raw) input.setRawMode(true);
  input.on('data', onData);
  input.on('end', onEnd);
  input.resume();
  return {
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((resolve) => (waiting = resolve))),
    close() {
      input.off('data', onData);
      input.off('end', onEnd);
      if (raw) input.setRawMode(false);
      input.pause();
    },
  };
}
