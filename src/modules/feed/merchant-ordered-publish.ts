// How the NATS relay sends feed items (D36): many publishes in flight across merchants, never
// two of one merchant. A merchant's next item leaves only once the broker has acknowledged its
// previous one, so a failed publish can never be overtaken by a later item of the same merchant
// (not even by a stream leader that changes between two publishes): each merchant's items reach
// the stream in feed order. Merchants are served round-robin, up to a window of acknowledgements
// awaited at a time, and the next page is added while the current one is still being sent.
// Waves awaited whole (the earlier rule: no merchant twice in a wave) stalled on every wave's
// slowest acknowledgement and every page's tail; here a merchant waits only for its own.

export interface OrderedItem {
  merchant_id: string;
  position: number;
}

export interface OrderedPublishResult {
  /** How many items the broker acknowledged. */
  sent: number;
  /**
   * The highest position up to which every item added was acknowledged (null: not even the
   * first). The relay's mark may move there and no further.
   */
  ackedThrough: number | null;
  /** The first failure; nothing new was sent after it. */
  error?: unknown;
}

export class MerchantOrderedPublisher<T extends OrderedItem> {
  private readonly rows: T[] = [];
  private acked: boolean[] = [];
  private readonly queues = new Map<string, number[]>();
  private readonly ready: string[] = [];
  private prefix = 0;
  private queued = 0;
  private inFlight = 0;
  private sent = 0;
  private failed = false;
  private error: unknown;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly publish: (row: T) => Promise<unknown>,
    private readonly window: number,
    /** Called (in order, never concurrently with itself) when the acknowledged prefix grows. */
    private readonly onAcked?: (position: number) => void,
  ) {}

  /** Items after the ones added before, in position order. */
  add(rows: T[]): void {
    for (const row of rows) {
      const i = this.rows.push(row) - 1;
      this.acked.push(false);
      const queue = this.queues.get(row.merchant_id);
      if (queue) queue.push(i);
      else {
        // A merchant without a queue has nothing waiting and nothing in flight.
        this.queues.set(row.merchant_id, [i]);
        this.ready.push(row.merchant_id);
      }
      this.queued++;
    }
    this.pump();
  }

  /**
   * Resolves once fewer than `lowWater` items wait to be sent (time to read more: the read then
   * overlaps the sending of what is left), or on failure.
   */
  hungry(lowWater = this.window): Promise<void> {
    if (this.failed || this.queued < lowWater) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.failed || this.queued < lowWater) resolve();
        else this.waiters.push(check);
      };
      this.waiters.push(check);
    });
  }

  /** Resolves when everything added was acknowledged, or after a failure once nothing is in flight. */
  drained(): Promise<OrderedPublishResult> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.inFlight === 0 && (this.failed || this.queued === 0)) {
          const top = this.prefix > 0 ? (this.rows[this.prefix - 1] as T).position : null;
          resolve({ sent: this.sent, ackedThrough: top, error: this.error });
        } else this.waiters.push(check);
      };
      check();
    });
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private pump(): void {
    while (!this.failed && this.inFlight < this.window && this.ready.length > 0) {
      const merchant = this.ready.shift() as string;
      const queue = this.queues.get(merchant) as number[];
      const i = queue.shift() as number;
      this.queued--;
      this.inFlight++;
      this.publish(this.rows[i] as T).then(
        () => {
          this.acked[i] = true;
          this.sent++;
          this.inFlight--;
          if (queue.length > 0) this.ready.push(merchant);
          else this.queues.delete(merchant);
          const before = this.prefix;
          while (this.prefix < this.rows.length && this.acked[this.prefix]) this.prefix++;
          if (this.prefix > before) this.onAcked?.((this.rows[this.prefix - 1] as T).position);
          this.pump();
        },
        (reason: unknown) => {
          if (!this.failed) this.error = reason;
          this.failed = true;
          this.inFlight--;
          this.pump();
        },
      );
    }
    this.notify();
  }
}

/**
 * Publishes `rows` (in position order) with at most `window` publishes in flight and at most one
 * per merchant. After the first failure nothing new is sent; the publishes in flight are awaited.
 */
export function publishInMerchantOrder<T extends OrderedItem>(
  rows: T[],
  publish: (row: T) => Promise<unknown>,
  window: number,
): Promise<OrderedPublishResult> {
  const publisher = new MerchantOrderedPublisher(publish, window);
  publisher.add(rows);
  return publisher.drained();
}
