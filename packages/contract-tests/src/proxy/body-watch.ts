// The target's answer body under the rules' one watch (BodyWatch: a stall is less than 1 KiB in
// --body-timeout of waiting; the whole body within --body-deadline of its headers), on a node stream.
// The watch's clock runs only while the stream flows: a caller that reads slowly (it pauses the stream
// through the pipe's back-pressure) is not the target's stall. A failure destroys the stream with the
// rules' BodyTimeoutError, which the reader (readUpTo, the pass-through) meets as its error.
import type { IncomingMessage } from 'node:http';
import { BodyWatch } from '@videogen/openapi/rules';

export interface BodyTimes {
  /** The stall window, ms. */
  idleMs: number;
  /** The whole body from its headers, ms. */
  totalMs: number;
}

const watched = new WeakSet<IncomingMessage>();

/**
 * Watches `up` from now until its end (or its destruction); once per stream (a second call does
 * nothing). Call it as its reading starts, in the same tick: its 'data' listener would otherwise set
 * the stream flowing with no reader.
 */
export function watchBody(up: IncomingMessage, times: BodyTimes): void {
  if (watched.has(up) || up.readableEnded || up.destroyed) return;
  watched.add(up);
  const watch = new BodyWatch({ idleMs: times.idleMs, totalMs: times.totalMs }, (error) => up.destroy(error));
  const flowing = () => (up.readableFlowing ? watch.waiting() : watch.resting());
  const onData = (chunk: Buffer) => {
    watch.add(chunk.length);
    flowing();
  };
  const stop = () => {
    watch.end();
    up.off('data', onData).off('pause', flowing).off('resume', onResume).off('end', stop).off('close', stop);
  };
  // 'resume' is emitted before the stream flows again: look once it does.
  const onResume = () => queueMicrotask(flowing);
  up.on('data', onData).on('pause', flowing).on('resume', onResume).once('end', stop).once('close', stop);
  flowing();
}
