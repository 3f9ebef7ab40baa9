/// <reference types="node" />
/** A progress bar with throughput on stderr, only on a terminal and only for large inputs. */

/** Inputs larger than this get a progress bar (when stderr is a terminal). */
export const PROGRESS_THRESHOLD = 64 * 1024 * 1024;
const REDRAW_MS = 100;

/** "1.50 GiB", "12.0 MiB", "512 B". */
export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${bytes} B`;
  return `${value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)} ${units[unit]}`;
}

/** Throughput in (decimal) megabytes per second. */
export function formatRate(bytesPerSecond: number): string {
  const mb = bytesPerSecond / 1e6;
  return `${mb.toFixed(mb < 10 ? 2 : mb < 100 ? 1 : 0)} MB/s`;
}

function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(s / 60);
  return `${minutes}:${String(s % 60).padStart(2, "0")}`;
}

export interface ProgressOptions {
  /** Total bytes expected, when known (regular files); else the bar shows a counter. */
  total: number | undefined;
  /** False turns the bar off (--no-progress, or stderr not a terminal). */
  enabled: boolean;
}

export class Progress {
  private readonly stream: NodeJS.WriteStream;
  private readonly total: number | undefined;
  private readonly enabled: boolean;
  private readonly start = performance.now();
  private done = 0;
  private lastDraw = 0;
  private drawn = false;

  constructor(stream: NodeJS.WriteStream, options: ProgressOptions) {
    this.stream = stream;
    this.total = options.total;
    this.enabled = options.enabled && stream.isTTY === true;
  }

  /** Counts `bytes` more, and redraws at most every 100 ms once the input is large. */
  add(bytes: number): void {
    this.done += bytes;
    if (!this.enabled) return;
    const large = (this.total ?? this.done) > PROGRESS_THRESHOLD;
    if (!large) return;
    const now = performance.now();
    if (this.drawn && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    this.draw(now);
  }

  /** Clears the bar. */
  finish(): void {
    if (this.drawn) this.stream.write("\r\x1b[K");
    this.drawn = false;
  }

  private draw(now: number): void {
    const seconds = Math.max((now - this.start) / 1000, 1e-3);
    const rate = this.done / seconds;
    // A pseudo-terminal without a window size reports 0 columns.
    const columns = this.stream.columns || 80;
    let line: string;
    if (this.total !== undefined && this.total > 0) {
      const fraction = Math.min(1, this.done / this.total);
      const left = rate > 0 ? (this.total - this.done) / rate : 0;
      const tail =
        ` ${(fraction * 100).toFixed(0).padStart(3)}%  ${formatBytes(this.done)} / ` +
        `${formatBytes(this.total)}  ${formatRate(rate)}  ${formatDuration(left)} left`;
      const width = Math.max(10, Math.min(30, columns - 60));
      const full = Math.round(fraction * width);
      line = `[${"#".repeat(full)}${"-".repeat(width - full)}]${tail}`;
    } else {
      line = `${formatBytes(this.done)}  ${formatRate(rate)}`;
    }
    this.stream.write(`\r${line.slice(0, Math.max(0, columns - 1))}\x1b[K`);
    this.drawn = true;
  }
}
