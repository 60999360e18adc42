/**
 * Keeps the first and the last bytes of a stream when it exceeds its cap: the start says what ran,
 * the end says how it failed. What was dropped in between is counted and said.
 */
export class CappedOutput {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;
  private readonly headCap: number;
  private readonly tailCap: number;

  constructor(maxBytes: number) {
    if (!Number.isFinite(maxBytes) || maxBytes < 0) throw new RangeError(`maxOutputBytes must be a non-negative number, got ${maxBytes}`);
    this.headCap = Math.floor(maxBytes / 2);
    this.tailCap = maxBytes - this.headCap;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headBytes < this.headCap) {
      const take = chunk.subarray(0, this.headCap - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0 || this.tailCap === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - (this.tail[0]?.length ?? 0) >= this.tailCap) this.tailBytes -= this.tail.shift()!.length;
  }

  get droppedBytes(): number {
    return this.total - this.headBytes - Math.min(this.tailBytes, this.tailCap);
  }

  get totalBytes(): number {
    return this.total;
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    let tail = Buffer.concat(this.tail);
    if (tail.length > this.tailCap) tail = tail.subarray(tail.length - this.tailCap);
    const dropped = this.droppedBytes;
    if (dropped === 0) return head + tail.toString('utf8');
    return `${head}\n[... ${dropped} bytes dropped ...]\n${tail.toString('utf8')}`;
  }
}
