// Where the console and the flow page send their requests. Served by the sandbox, the page carries the
// sandbox's description (`#vg-sandbox`, written by the sandbox when it serves the page): requests go to
// the page's own origin with a key chosen from its accounts. Anywhere else the reader types a base URL
// and a key. The key lives in this module's memory; it is written to localStorage only when the reader
// ticks "Keep the key in this browser", and it never goes into a URL.

import type { Plan } from './plans.ts';

export interface SandboxVideo {
  video_id: string;
  status: string;
  prompt: string;
  convertible: boolean;
  real_avatar: boolean;
  voices: 'all' | string[];
  unknown_error: boolean;
}

export interface SandboxAccount {
  name: string;
  plan: Plan;
  credits: number;
  keys: string[];
  settings: { video_setting_id: string; title: string; request_fields: string[] }[];
  videos: SandboxVideo[];
}

export interface SandboxInfo {
  time_scale: number;
  rate_limiter: string;
  personality: string;
  generation_seconds: number;
  accounts: SandboxAccount[];
}

export interface Target {
  mode: 'sandbox' | 'hosted';
  /** The base URL, with /v1 and without a trailing slash. */
  baseUrl: string;
  key: string;
  /** The sandbox account of the key (sandbox mode). */
  account?: SandboxAccount;
  /**
   * Whose resources requests reach: the sandbox account, or (hosted) the base URL with the typed key.
   * Setting and video ids belong to an account (limits and resources are per account, 5.5), so what the
   * console learns or picks is kept under this name and never offered to another account.
   */
  identity: string;
}

const STORE = 'videogen.docs.target';

/** The sandbox's description, when a sandbox served this page. */
export function readSandbox(doc: Document = document): SandboxInfo | undefined {
  const node = doc.getElementById('vg-sandbox');
  if (!node?.textContent) return undefined;
  try {
    return JSON.parse(node.textContent) as SandboxInfo;
  } catch {
    return undefined;
  }
}

/** The sandbox's base URL as this page reaches it: its own origin (whatever host or port it listens on). */
export function sandboxBaseUrl(loc: Location = location): string {
  return `${loc.origin}/v1`;
}

interface Stored {
  mode?: 'sandbox' | 'hosted';
  baseUrl?: string;
  key?: string;
  sandboxKey?: string;
}

function load(): Stored {
  try {
    return JSON.parse(localStorage.getItem(STORE) ?? '{}') ?? {};
  } catch {
    return {};
  }
}

/** The reader's target, shared by every console panel of the page; listeners hear each change. */
export class TargetState {
  readonly sandbox: SandboxInfo | undefined;
  mode: 'sandbox' | 'hosted';
  hostedBaseUrl: string;
  /** The typed key: memory only, unless `keepKey`. */
  hostedKey: string;
  keepKey: boolean;
  sandboxKey: string;
  private listeners = new Set<() => void>();

  constructor(sandbox = readSandbox()) {
    this.sandbox = sandbox;
    const stored = load();
    this.mode = sandbox && stored.mode !== 'hosted' ? 'sandbox' : 'hosted';
    this.hostedBaseUrl = stored.baseUrl ?? '';
    this.hostedKey = stored.key ?? '';
    this.keepKey = typeof stored.key === 'string';
    const keys = sandbox?.accounts.flatMap((a) => a.keys) ?? [];
    this.sandboxKey = stored.sandboxKey && keys.includes(stored.sandboxKey) ? stored.sandboxKey : (keys[0] ?? '');
  }

  get target(): Target {
    if (this.mode === 'sandbox' && this.sandbox) {
      const account = this.sandbox.accounts.find((a) => a.keys.includes(this.sandboxKey));
      return {
        mode: 'sandbox',
        baseUrl: sandboxBaseUrl(),
        key: this.sandboxKey,
        account,
        identity: `sandbox account ${account?.name ?? this.sandboxKey}`,
      };
    }
    const baseUrl = this.hostedBaseUrl.trim().replace(/\/+$/, '');
    const key = this.hostedKey.trim();
    // (The typed key is part of the name: a map key in memory, never shown or stored.)
    return { mode: 'hosted', baseUrl, key, identity: `hosted\n${baseUrl}\n${key}` };
  }

  update(change: Partial<Pick<TargetState, 'mode' | 'hostedBaseUrl' | 'hostedKey' | 'keepKey' | 'sandboxKey'>>) {
    Object.assign(this, change);
    this.save();
    for (const listener of this.listeners) listener();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The base URL, the mode and the chosen sandbox key (documented, not secrets) are kept; a typed key only when asked. */
  private save() {
    const stored: Stored = { mode: this.mode, baseUrl: this.hostedBaseUrl, sandboxKey: this.sandboxKey };
    if (this.keepKey && this.hostedKey) stored.key = this.hostedKey;
    try {
      localStorage.setItem(STORE, JSON.stringify(stored));
    } catch {
      // Storage refused (private mode, file://): memory only.
    }
  }
}
