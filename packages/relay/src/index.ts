// @videogen/relay: completion webhooks for a polling-only API. One relay (or several, sharing Redis)
// polls every video of the account on its shared schedule and POSTs each terminal state to your
// endpoint as a Standard Webhooks delivery, retried on Svix's schedule, then dead-lettered.
export { createRelay, openStore, replay } from './relay.js';
export type { Relay, RelayCounts, RelayStatus } from './relay.js';
export { DEFAULTS, listenOf, resolveOptions } from './options.js';
export type { ListenOptions, RelayLogRecord, RelayOptions } from './options.js';
export { DELIVERY_TIMEOUT_MS, RETRY_SCHEDULE_MS, signatures } from './delivery.js';
export { downloadUrlExpiry, eventId, eventPayload } from './events.js';
export { orderOf, SEEN_WINDOW_MS } from './discovery.js';
export { FileRelayStore } from './file-store.js';
export { RedisRelayStore } from './redis-store.js';
export { DISCOVERY_ID, DONE_KEEP_MS } from './store.js';
export type { DeadLetter, PendingEvent, RelayStore, StoreStatus, VideoRecord, WatchResult } from './store.js';
