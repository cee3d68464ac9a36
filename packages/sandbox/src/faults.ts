// Behaviour injected for the next K requests of an account (`POST /_sandbox/faults`): a latency, a
// 429, a 503, a 500 or a dropped connection, so client and suite tests can provoke each without
// timing tricks. Faults queue up per account and are consumed one request at a time, in order.
export const FAULT_KINDS = ['latency', '429', '503', '500', 'drop'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  kind: FaultKind;
  /** Requests still to be affected. */
  remaining: number;
  /** `latency`: real milliseconds added before the request is handled. */
  latency_ms?: number;
  /** `429`/`503`: Retry-After in service seconds (scaled like every other duration). */
  retry_after_seconds?: number;
  /** `429`/`503`/`500`: the error_code to answer (defaults: RATE_LIMIT_EXCEEDED, SERVICE_UNAVAILABLE, UNKNOWN_ERROR). */
  error_code?: string;
}

export class Faults {
  private queues = new Map<string, Fault[]>();

  add(account: string, fault: Fault) {
    const q = this.queues.get(account) ?? [];
    q.push(fault);
    this.queues.set(account, q);
  }

  /** The fault for this request of the account, if any (consumes one). */
  take(account: string): Fault | undefined {
    const q = this.queues.get(account);
    if (!q?.length) return undefined;
    const fault = q[0];
    if (--fault.remaining <= 0) q.shift();
    return fault;
  }

  pending(account: string): Fault[] {
    return (this.queues.get(account) ?? []).map((f) => ({ ...f }));
  }

  clear(account: string) {
    this.queues.delete(account);
  }
}

/** Responses answered, per account and status (the bench reads its 429s and 503s here). */
export class ResponseStats {
  private counts = new Map<string, Record<string, number>>();

  record(account: string | undefined, status: number) {
    const key = account ?? '-';
    let c = this.counts.get(key);
    if (!c) this.counts.set(key, (c = {}));
    c[status] = (c[status] ?? 0) + 1;
  }

  of(account: string): Record<string, number> {
    return { ...this.counts.get(account) };
  }

  /** All accounts together (`-`: requests that never authenticated). */
  total(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const c of this.counts.values()) for (const [s, n] of Object.entries(c)) out[s] = (out[s] ?? 0) + n;
    return out;
  }

  reset(account?: string) {
    if (account === undefined) this.counts.clear();
    else this.counts.delete(account);
  }
}
