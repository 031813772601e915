/**
 * A tiny progress bar on stderr (no dependency): redraws in place on a terminal, prints a line
 * every 10% when the output is a file or a pipe (CI logs stay short).
 */
export class Progress {
  private done = 0;
  private readonly started = performance.now();
  private lastDraw = 0;
  private lastDecile = -1;
  private readonly tty = Boolean(process.stderr.isTTY);

  constructor(
    private readonly label: string,
    private readonly total: number,
  ) {
    this.draw(true);
  }

  tick(n = 1): void {
    this.done += n;
    this.draw(false);
  }

  finish(): number {
    this.done = this.total;
    this.draw(true);
    const seconds = (performance.now() - this.started) / 1000;
    if (this.tty) process.stderr.write('\n');
    return seconds;
  }

  private draw(force: boolean): void {
    const now = performance.now();
    const fraction = this.total === 0 ? 1 : Math.min(1, this.done / this.total);
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(this.done / seconds) : 0;
    const text =
      `${this.label.padEnd(16)} ${this.done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')} ` +
      `${(fraction * 100).toFixed(0).padStart(3)}%  ${rate.toLocaleString('en-US')}/s  ${seconds.toFixed(1)}s`;
    if (this.tty) {
      if (!force && now - this.lastDraw < 100) return;
      this.lastDraw = now;
      const width = 24;
      const filled = Math.round(fraction * width);
      process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${text}\x1b[K`);
      return;
    }
    const decile = Math.floor(fraction * 10);
    // 100% is printed by finish(), with the final time.
    if (!force && (decile === this.lastDecile || decile === 10)) return;
    if (force && this.done < this.total && this.lastDecile >= 0) return;
    this.lastDecile = decile;
    process.stderr.write(`  ${text}\n`);
  }
}
