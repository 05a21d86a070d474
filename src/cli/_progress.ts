// A progress bar on stderr, drawn only when stderr is a terminal, so piped and CI output stays clean, and
// only once the work has taken a second: a short scan prints its answer and nothing else.

export function progressLine(
  done: number,
  total: number,
  files: number,
  fileCount: number,
  elapsedMs: number,
  width = 24,
): string {
  const fraction = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(fraction * width);
  const rate = elapsedMs > 0 ? done / 1e6 / (elapsedMs / 1000) : 0;
  return (
    `scanning ${'█'.repeat(filled)}${'░'.repeat(width - filled)} ` +
    `${Math.floor(fraction * 100)}%  ${files}/${fileCount} sessions  ${rate.toFixed(1)} MB/s`
  );
}

const SHOW_AFTER_MS = 1000;

export class Progress {
  private done = 0;
  private files = 0;
  private drawn = 0;
  private visible = false;
  private readonly start: number;

  constructor(
    private readonly total: number,
    private readonly fileCount: number,
    private readonly stream: Pick<NodeJS.WriteStream, 'write'> | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.start = now();
  }

  bytes(n: number): void {
    this.done += n;
    this.draw();
  }

  file(): void {
    this.files++;
    this.draw();
  }

  /** Clears the bar so a line can be printed; the next update draws it again. */
  clear(): void {
    if (!this.stream || !this.visible) return;
    this.stream.write('\r\x1b[2K');
    this.visible = false;
  }

  private draw(): void {
    if (!this.stream) return;
    const now = this.now();
    if (now - this.start < SHOW_AFTER_MS || now - this.drawn < 100) return;
    this.drawn = now;
    this.visible = true;
    this.stream.write('\r\x1b[2K' + progressLine(this.done, this.total, this.files, this.fileCount, now - this.start));
  }
}
