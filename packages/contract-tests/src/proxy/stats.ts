// What the proxy did, for its summary line, `stats()` and the tests: counts only, no keys.
export interface PacingProxyStats {
  /** Requests the callers sent to the proxy. */
  requests: number;
  /** Statuses given to the callers, the proxy's own answers included (status → count). */
  answered: Record<string, number>;
  /** Answers the proxy made itself (error_code → count): budget refusals, unreachable target, bad input. */
  ownAnswers: Record<string, number>;
  upstream: {
    /** Attempts sent to the target (re-sends and the proxy's own status reads included). */
    sent: number;
    /** Statuses the target answered (status → count); the target's 429s and 503s show here, not in `answered`. */
    answered: Record<string, number>;
    /** Attempts that got no answer (connection refused or lost, TLS failure, time limit). */
    failed: number;
  };
  /** Requests sent again, by the answer that caused it. */
  resent: { rateLimit: number; unavailable: number; serverError: number; network: number };
  /** Target 5xx answers to a POST passed to the caller without a re-send (it may have created a video). */
  notResent: number;
  /** Generations and conversions that found the account's running slots full (as the proxy knows them) and waited. */
  heldForConcurrency: number;
  /** Status reads the proxy sent itself to learn whether a running video had finished. */
  statusReads: number;
  /** Callers that left before their request was sent: nothing was sent for them. */
  abandoned: number;
  /** Callers that left while the target answered: the attempt was stopped at once, its pacer slot freed. */
  left: number;
  /** API keys held now (bounded by maxKeys and keyIdleMs), keys forgotten so far, and the accounts whose schedule the pacer holds in this process. */
  keys: { held: number; forgotten: number; pacedAccounts?: number };
  /** Request bodies that went to a temporary file (over 1 MiB). */
  spooledToDisk: number;
  credits: { budget?: number; spent: number; inFlight: number; refused: number };
  /** Total time requests were held by the pacer, ms. */
  waitedMs: number;
}

export function emptyStats(budget?: number): PacingProxyStats {
  return {
    requests: 0,
    answered: {},
    ownAnswers: {},
    upstream: { sent: 0, answered: {}, failed: 0 },
    resent: { rateLimit: 0, unavailable: 0, serverError: 0, network: 0 },
    notResent: 0,
    heldForConcurrency: 0,
    statusReads: 0,
    abandoned: 0,
    left: 0,
    keys: { held: 0, forgotten: 0 },
    spooledToDisk: 0,
    credits: { ...(budget !== undefined && { budget }), spent: 0, inFlight: 0, refused: 0 },
    waitedMs: 0,
  };
}

export const count = (map: Record<string, number>, key: string | number) => void (map[key] = (map[key] ?? 0) + 1);
