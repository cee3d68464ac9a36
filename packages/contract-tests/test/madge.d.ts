// The part of madge's API the structure test uses (madge ships no types).
declare module 'madge' {
  interface MadgeResult {
    obj(): Record<string, string[]>;
    circular(): string[][];
    warnings(): { skipped: string[] };
  }
  export default function madge(path: string, config?: Record<string, unknown>): Promise<MadgeResult>;
}
