// --credit-budget N: at most N generations and conversions accepted through the proxy, all keys
// together (a credit is one start the target accepted, the suite's unit: the interface shows no
// price). A start holds a place while it is under way, so N concurrent starts cannot overshoot; a
// start whose answer does not prove that nothing was created (a 5xx other than 503, a connection
// lost after sending) is counted as spent.
export type StartOutcome = 'accepted' | 'maybe' | 'refused';

export class CreditBudget {
  spent = 0;
  inFlight = 0;
  refused = 0;
  constructor(readonly limit: number | undefined) {}

  /** Takes a place for a start; false when the budget is used up (the proxy answers itself). */
  reserve(): boolean {
    if (this.limit !== undefined && this.spent + this.inFlight >= this.limit) {
      this.refused++;
      return false;
    }
    this.inFlight++;
    return true;
  }

  settle(outcome: StartOutcome): void {
    this.inFlight--;
    if (outcome !== 'refused') this.spent++;
  }
}
