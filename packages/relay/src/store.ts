// What a relay keeps, and the operations on it, behind one interface with two homes: Redis (several
// relays share it: redis-store.ts) and a file (one relay, `--state FILE`: file-store.ts). Both hold the
// same records and keep the same promises:
//
// - Work is leased. A record (a watched video, or the account's discovery) is due at a time; `claim` hands
//   due records out, each with a new fence number, and holds them for `leaseMs` (renewed while worked on).
//   A relay that dies stops renewing: the lease lapses and another relay claims the record, from what was
//   last written. So each video is polled by one relay at a time, and nothing is lost with a relay.
// - Writes are fenced. `release` writes a record back only while its fence is the one the holder claimed
//   with: a relay that lost its lease (paused past it) cannot undo a newer holder's work. What it did in
//   the meantime (a delivery) is done again by the newer holder with the same webhook id.
// - An event is appended to its video's record before its first delivery, and leaves it only once
//   delivered or dead-lettered: each event is delivered at least once, in order per video.
// - Times handed to the store are durations from now: the store's own clock (Redis's TIME, the file
//   relay's clock) decides when something is due, so relays on machines whose clocks differ agree.
import type { WebhookEventType } from '@videogen/client';

/** An event waiting for delivery: its body is fixed when it is made (every attempt sends the same bytes). */
export interface PendingEvent {
  /** The `webhook-id`: the same on every attempt, every relay, every replay. */
  id: string;
  type: WebhookEventType;
  /** The request body, exactly as signed and sent. */
  body: string;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due (ms since the epoch, the relay's clock). */
  nextAt: number;
  /** When the event was made. */
  madeAt: number;
  /** What the last attempt met (a status, a timeout, a refused connection). */
  lastError?: string;
}

/** A video the relay watches, or whose events it still has to deliver. */
export interface VideoRecord {
  kind: 'video';
  video_id: string;
  /** A conversion's source, when announced. */
  source_video_id?: string;
  /** The trace the video's spans and webhooks belong to (the create's, when announced). */
  traceparent?: string;
  tracestate?: string;
  /** The trace is the relay's own (a listing found the video): an announce's, the create's, replaces it. */
  ownTrace?: boolean;
  /** Polled until a terminal state; false once one was seen (or the video is gone). */
  watching: boolean;
  /** The last status read. */
  status?: string;
  polls: number;
  /** Failed status reads in a row (their backoff). */
  pollErrors: number;
  /** When the relay began watching it. */
  since: number;
  /** When the video was created, as far as the relay knows (the announce, or the listing's `created_at`). */
  createdAt?: number;
  /** The last read that said `running` (what the video's generation took is at least that old). */
  runningAt?: number;
  /** When it is to be polled next (while `watching`). */
  nextPollAt: number;
  /** When a completed video is read again to see it expire (`watchExpiryMs`), if asked. */
  expiryCheckAt?: number;
  /** Event types already made for it: none is made twice. */
  emitted: WebhookEventType[];
  /** Its events not yet delivered, oldest first: delivered in this order. */
  events: PendingEvent[];
}

/** How the account's videos are listed, as far as the relay could tell (interface 4.2 does not say). */
export type ListOrder = 'newest-first' | 'oldest-first' | 'unknown';

/** The account's discovery by listing: one record, leased like a video's (one relay lists at a time). */
export interface DiscoveryRecord {
  kind: 'discovery';
  /** The newest `created_at` listed so far (ms). */
  watermark?: number;
  /** `total_count` at the last listing. */
  total?: number;
  order?: ListOrder;
  /** With an order that cannot be told: the next page of the bounded scan. */
  scanPage?: number;
  /** New videos the count announced and the sweep has not found yet (-1: unknown, a first listing). */
  missing?: number;
  /** Pages the sweep has still to look at. */
  scanLeft?: number;
  /** Listings in a row that found nothing to watch (the next ones come less often). */
  quiet?: number;
}

export type RelayRecord = VideoRecord | DiscoveryRecord;

/** The id of the discovery record among the videos' ids (not a UUID: no video has it). */
export const DISCOVERY_ID = '@discovery';

/** A claimed record: its id, the fence to write it back with, and the record as last written. */
export interface Task {
  id: string;
  fence: number;
  record: RelayRecord;
}

/** An event whose attempts all failed, kept for `--failed` and `--replay`. */
export interface DeadLetter {
  video_id: string;
  event: PendingEvent;
  /** When it was given up (ms since the epoch). */
  failedAt: number;
}

/** What a release writes besides the record (atomically with it). */
export interface ReleaseExtras {
  /** Events given up: onto the dead-letter list. */
  dead?: DeadLetter[];
  /** Dead letters requeued by this release (a replay): off the list. */
  undead?: string[];
  /** New videos to watch (discovery): added unless known or done, due at `dueInMs`. */
  watch?: Array<{ record: VideoRecord; dueInMs: number }>;
  /** Videos listed (id → `created_at` ms), remembered so that the next listing knows them. */
  seen?: Array<[string, number]>;
  /** Forget listed videos created before this (ms): the listing tells them by their age from then on. */
  forgetSeenBefore?: number;
}

export interface StoreStatus {
  /** Where the state lives: `redis://***@host:6379/0` or a file path. */
  where: string;
  /** Videos watched or with events to deliver. */
  records: number;
  /** Videos whose work is done, remembered for a while (an announce of one is not watched again). */
  done: number;
  dead: number;
  /** The time from which listed videos are watched (ms). */
  epoch: number | undefined;
}

export type WatchResult = 'added' | 'known' | 'done';

export interface RelayStore {
  /** Where the state lives, for messages (a Redis URL without its password, or a path). */
  readonly where: string;
  /**
   * Claims up to `max` due records for `leaseMs`. `epoch` is the relay's (ms): set when the store has none
   * (a first start, or a Redis that lost its data: then `initialized` is true), with the discovery record.
   * `nextDueInMs`: when the earliest record not handed out is due (undefined: none).
   */
  claim(
    max: number,
    leaseMs: number,
    epoch: number,
  ): Promise<{ tasks: Task[]; nextDueInMs?: number; epoch: number; initialized: boolean }>;
  /** Holds a claimed record `leaseMs` more; false when the fence is no longer the holder's (the lease was lost). */
  renew(id: string, fence: number, leaseMs: number): Promise<boolean>;
  /**
   * Writes a claimed record back and frees its lease, due again in `dueInMs`; without one (or without a
   * record) the record's work is done and it is removed (a video is then remembered as done for a while).
   * False, and nothing written, when the fence is no longer the holder's.
   */
  release(
    id: string,
    fence: number,
    record: RelayRecord | undefined,
    dueInMs: number | undefined,
    extras?: ReleaseExtras,
  ): Promise<boolean>;
  /**
   * Writes a claimed record while keeping its lease and due time (a checkpoint: an event made, a delivery
   * done), so that a relay killed later in the same claim leaves it there. False when the fence is not the holder's.
   */
  save(id: string, fence: number, record: RelayRecord, extras?: Pick<ReleaseExtras, 'dead'>): Promise<boolean>;
  /** Claims one record by id, if not leased: undefined when it is (busy); `record` undefined when absent. */
  take(id: string, leaseMs: number): Promise<{ fence: number; record?: RelayRecord } | undefined>;
  /** For each id: whether the store knows the video (watched, done lately, or listed lately). */
  known(ids: string[]): Promise<boolean[]>;
  /** Starts watching a video (an announce), due in `dueInMs`, unless it is watched already or done lately. */
  watch(record: VideoRecord, dueInMs: number): Promise<WatchResult>;
  /** The dead-letter list, newest first. */
  failed(): Promise<DeadLetter[]>;
  status(): Promise<StoreStatus>;
  /** Calls `listener` when another process queued work (an announce, a replay): claim again at once. */
  onWake(listener: () => void): void;
  /** Tells the others (and this process) that work was queued. */
  wake(): Promise<void>;
  close(): Promise<void>;
}

/** How long a video whose work is done is remembered (an announce of it then is not watched again). */
export const DONE_KEEP_MS = 6 * 3600_000;
