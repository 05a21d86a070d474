// What a function gave for a text key, remembered while the keys come to at most `chars` characters, then
// forgotten all at once: a history says the same things again and again (a loop's outputs, a resumed
// session's copy of the earlier one), and memory stays bounded. A key longer than `longest` is not kept.

export interface BoundedMemo<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
}

export function boundedMemo<T>(chars: number, longest: number): BoundedMemo<T> {
  const map = new Map<string, T>();
  let held = 0;
  return {
    get: (key) => map.get(key),
    set: (key, value) => {
      if (key.length > longest) return;
      if (held + key.length > chars) {
        map.clear();
        held = 0;
      }
      map.set(key, value);
      held += key.length;
    },
  };
}
