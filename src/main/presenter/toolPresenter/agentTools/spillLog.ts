import { appendFileSync, closeSync, fstatSync, openSync, readSync, writeFileSync } from 'node:fs'

export const SPILL_CAP_BYTES = 64 * 1024 * 1024

/**
 * The log file a command's output spills to. It never grows past `capBytes`: once it would,
 * the older half is dropped and a first line says how much earlier output is gone.
 */
export class SpillLog {
  private bytes = 0
  private droppedBytes = 0
  private noteBytes = 0

  constructor(
    readonly file: string,
    private readonly capBytes: number = SPILL_CAP_BYTES
  ) {}

  /** Starts the file with `initial` (the output kept in memory so far). */
  open(initial: string): void {
    writeFileSync(this.file, initial)
    this.bytes = Buffer.byteLength(initial)
    this.capIfNeeded()
  }

  append(chunk: string): void {
    appendFileSync(this.file, chunk)
    this.bytes += Buffer.byteLength(chunk)
    this.capIfNeeded()
  }

  clear(): void {
    writeFileSync(this.file, '')
    this.bytes = 0
    this.droppedBytes = 0
    this.noteBytes = 0
  }

  /** Bytes of output dropped from the front so far. */
  get dropped(): number {
    return this.droppedBytes
  }

  private capIfNeeded(): void {
    if (this.bytes <= this.capBytes) return
    const tail = readTail(this.file, Math.floor(this.capBytes / 2))
    this.droppedBytes += this.bytes - this.noteBytes - tail.length
    const note = Buffer.from(
      `[… ${this.droppedBytes} bytes of earlier output dropped: this log keeps only the last ${formatSize(this.capBytes)}]\n`
    )
    writeFileSync(this.file, Buffer.concat([note, tail]))
    this.noteBytes = note.length
    this.bytes = note.length + tail.length
  }
}

/** The last `size` bytes of `file`, starting at a character boundary. */
function readTail(file: string, size: number): Buffer {
  const fd = openSync(file, 'r')
  try {
    const total = fstatSync(fd).size
    const length = Math.min(size, total)
    const buffer = Buffer.alloc(length)
    readSync(fd, buffer, 0, length, total - length)
    let start = 0
    // Skip UTF-8 continuation bytes so the kept text does not begin mid-character.
    while (start < buffer.length && (buffer[start] & 0xc0) === 0x80) start++
    return buffer.subarray(start)
  } finally {
    closeSync(fd)
  }
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`
  return `${bytes} bytes`
}
