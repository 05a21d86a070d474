// What a function gave for a text key, remembered while the keys come to at most `chars` characters, then
// forgotten all at once: a history says the same things again and again (a loop's outputs, a resumed
// session's copy of the earlier one), and memory stays bounded. A key longer than `longest` is not kept.

export interface BoundedMemo<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
}

/**
 * Keys up to this long are looked up in a Map by themselves. A longer one is looked up by its length and a
 * sample of its characters, then compared whole with the keys that share them: a Map hashes every character
 * of a key it has not met (V8, up to 16K characters), which cost a scan more than the redaction it saved,
 * where comparing two strings stops at their first difference.
 */
const WHOLE = 256;
const SAMPLES = 32;

function sampled(key: string): number {
  const last = key.length - 1;
  let h = key.length;
  for (let i = 0; i < SAMPLES; i++)
    h = Math.imul(h ^ key.charCodeAt(Math.floor((last * i) / (SAMPLES - 1))), 0x01000193);
  return h;
}

export function boundedMemo<T>(chars: number, longest: number): BoundedMemo<T> {
  const map = new Map<string, T>();
  const long = new Map<number, [string, T][]>();
  let held = 0;
  return {
    get: (key) => {
      if (key.length <= WHOLE) return map.get(key);
      const same = long.get(sampled(key));
      if (same) for (const [k, v] of same) if (k === key) return v;
      return undefined;
    },
    set: (key, value) => {
      if (key.length > longest) return;
      if (held + key.length > chars) {
        map.clear();
        long.clear();
        held = 0;
      }
      held += key.length;
      if (key.length <= WHOLE) {
        map.set(key, value);
        return;
      }
      const at = sampled(key);
      const same = long.get(at);
      if (!same) {
        long.set(at, [[key, value]]);
        return;
      }
      const known = same.find((entry) => entry[0] === key);
      if (known) known[1] = value;
      else same.push([key, value]);
    },
  };
}
