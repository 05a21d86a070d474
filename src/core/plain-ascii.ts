// Letters and digits of every script (\p{L}, \p{N}) tell one error, name or line of output from another,
// but those classes take V8 milliseconds to compile, once a process, and the cold hook is a process per
// call. Most texts are printable ASCII, where [A-Za-z] and [0-9] say the same: callers take that way for them.

const PRINTABLE = /^[\t\n\r -~]*$/;

/** Whether `text` is printable ASCII (tab and line breaks included): its letters and digits are [A-Za-z0-9]. */
export function isPlainAscii(text: string): boolean {
  return PRINTABLE.test(text);
}

/** The text with everything but its letters and digits, of any script, taken out. */
export function lettersAndDigits(text: string): string {
  return isPlainAscii(text) ? text.replace(/[^A-Za-z0-9]+/g, '') : text.replace(/[^\p{L}\p{N}]+/gu, '');
}
