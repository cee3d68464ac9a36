// The pacing proxy (issue 19 §4): `videogen-contract proxy --target URL`, and the same programmatically.
// A local HTTP proxy that makes any tool keep the interface's limits: see README.md "Pacing proxy"
// and the docs guide "Outside tools within the limits". Self-contained: it imports only
// @videogen/openapi/rules (the one pacer, the one retry decision, the redaction), Node and its own files.
export { proxyCommand, proxyOptions, summary, PROXY_USAGE, type ProxyCommandIO } from './cli.ts';
export { startPacingProxy, maxRequestBytes, type PacingProxy, type PacingProxyOptions } from './server.ts';
export { PROXY_ERRORS, PROXY_HEADER, NOT_RESENT_HEADER, type ProxyErrorCode } from './envelope.ts';
export { fingerprint, identity } from '../engine/key-names.ts';
export type { PacingProxyStats } from './stats.ts';
export type { ExchangeObserver, ResendReason, Trace } from './observers.ts';
