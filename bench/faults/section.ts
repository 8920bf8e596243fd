// The shape every fault section has (bench/faults/sections/*.ts); the harness runs them in name order.
export interface FaultOptions {
  /** Small sizes, for a quick look or CI. */
  quick: boolean;
  /** A number from --trials, when given: the section's count of trials instead of its default. */
  trials?: number;
}

export interface FaultSection {
  name: string;
  run(opts: FaultOptions): Promise<Record<string, number | string>>;
}
