// The sandbox's state: videos per account and credit balances. With a data dir it is written to
// `state.json` (write to a temporary file, then rename: a crash never leaves half a file).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Accounts } from './accounts.js';
import { VIDEO_SCENARIOS, fixtureId } from './fixtures.js';
import { COPYRIGHT, type VideoRecord } from './lifecycle.js';

interface PersistedState {
  version: 1;
  signing_secret: string;
  credits: Record<string, number>;
  videos: VideoRecord[];
}

export class Store {
  private videos = new Map<string, VideoRecord>();
  /** Per account, in creation order (oldest first). */
  private byAccount = new Map<string, VideoRecord[]>();
  private credits = new Map<string, number>();
  readonly signingSecret: string;
  private file?: string;

  constructor(accounts: Accounts, opts: { dataDir?: string; signingSecret?: string }) {
    let saved: PersistedState | undefined;
    if (opts.dataDir) {
      mkdirSync(opts.dataDir, { recursive: true });
      this.file = join(opts.dataDir, 'state.json');
      try {
        saved = JSON.parse(readFileSync(this.file, 'utf8'));
      } catch (err: any) {
        if (err.code !== 'ENOENT') throw new Error(`cannot read sandbox state ${this.file}: ${err.message}`);
      }
    }
    // A persisted secret keeps download URLs handed out before a restart valid.
    this.signingSecret = opts.signingSecret ?? saved?.signing_secret ?? randomBytes(32).toString('hex');
    for (const account of accounts.all.values()) {
      this.byAccount.set(account.name, []);
      this.credits.set(account.name, saved?.credits[account.name] ?? accounts.initialCredits.get(account.name)!);
      VIDEO_SCENARIOS.forEach((s) => {
        this.insert({
          video_id: fixtureId(account.videoPrefix, s.n),
          account: account.name,
          // Scenario 1 (the plain convertible video) is the newest seed, so that a client discovering
          // "the first completed video" of the list gets an ordinary one, not a scenario.
          created_at: Date.UTC(2026, 0, 20 - s.n, 9, 0, 0),
          prompt: s.prompt,
          fixed_status: s.status,
          finishes_at: 0,
          outcome: s.status === 'failed' ? 'failed' : 'completed',
          expires_at: null,
          language: 'ja',
          aspect_ratio: '16:9',
          voices: s.voices === 'all' ? 'all' : [...s.voices],
          has_video_data: s.convertible || s.realAvatar,
          real_avatar: s.realAvatar,
          unknown_error_on_convert: s.unknownError,
          copyright: s.status === 'completed' ? [...COPYRIGHT] : [],
        });
      });
    }
    for (const v of saved?.videos ?? []) if (this.byAccount.has(v.account)) this.insert(v);
    if (this.file && !saved) this.save();
  }

  private insert(v: VideoRecord) {
    this.videos.set(v.video_id, v);
    this.byAccount.get(v.account)!.push(v);
  }

  /** A video of this account; another account's video is as absent as an unknown one. */
  get(account: string, videoId: string): VideoRecord | undefined {
    const v = this.videos.get(videoId.toLowerCase());
    return v && v.account === account ? v : undefined;
  }

  /** Any account's video (download URLs carry no key). */
  find(videoId: string): VideoRecord | undefined {
    return this.videos.get(videoId.toLowerCase());
  }

  /** Newest first (ties: the later created first). */
  list(account: string): VideoRecord[] {
    const all = this.byAccount.get(account) ?? [];
    return all
      .map((v, i) => [v, i] as const)
      .sort((a, b) => b[0].created_at - a[0].created_at || b[1] - a[1])
      .map(([v]) => v);
  }

  all(account: string): readonly VideoRecord[] {
    return this.byAccount.get(account) ?? [];
  }

  creditsOf(account: string): number {
    return this.credits.get(account) ?? 0;
  }

  /** Record a new video and charge its credit in one step (and one write). */
  create(v: VideoRecord, cost = 1) {
    this.insert(v);
    this.credits.set(v.account, this.creditsOf(v.account) - cost);
    this.save();
  }

  /** Back to the seed (`/_sandbox/reset`): the account's own videos go, its credits are refilled. */
  resetAccount(account: string, credits: number) {
    const own = this.byAccount.get(account) ?? [];
    for (const v of own) if (!v.fixed_status) this.videos.delete(v.video_id);
    this.byAccount.set(account, own.filter((v) => v.fixed_status));
    this.credits.set(account, credits);
    this.save();
  }

  private save() {
    if (!this.file) return;
    const state: PersistedState = {
      version: 1,
      signing_secret: this.signingSecret,
      credits: Object.fromEntries(this.credits),
      videos: [...this.videos.values()].filter((v) => !v.fixed_status),
    };
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state));
    renameSync(tmp, this.file);
  }
}
