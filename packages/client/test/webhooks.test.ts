// verifyWebhook against deliveries signed by the stock standardwebhooks package (as a relay signs them):
// the headers as frameworks hand them, several secrets (a rotation), and every way a delivery can fail to
// verify, each with its error_code. The relay's own deliveries are verified in packages/relay.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError, type VideoCompletedEvent } from '../src/index.js';
import * as small from '../src/webhooks-entry.js';

const secret = `whsec_${Buffer.from('client-webhook-test-secret-01234567').toString('base64')}`;
const other = `whsec_${Buffer.from('client-webhook-test-other-secret-89').toString('base64')}`;
const event: VideoCompletedEvent = {
  type: 'video.completed',
  timestamp: '2026-11-27T06:00:00.000Z',
  data: {
    video_id: '0b5a1c2e-3d4f-4a5b-8c6d-7e8f9a0b1c2d',
    status: 'completed',
    download_url: 'https://cdn.example/v.mp4?expires=1795770000&signature=ab',
    download_url_expires_at: '2026-11-27T09:00:00.000Z',
    copyright: [],
  },
};
const body = JSON.stringify(event);

/** A delivery's headers, signed with `secrets` (all of them, space-separated, as a relay in a rotation does). */
function signed(b = body, at = new Date(), secrets = [secret], id = 'msg_0123456789abcdef0123456789abcdef') {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, b)).join(' '),
  };
}

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(WebhookVerificationError);
    return (e as WebhookVerificationError).error_code;
  }
  return 'verified';
};

describe('verifyWebhook', () => {
  it('returns the typed event and its webhook-id, whatever form the body and the headers come in', () => {
    const h = signed();
    const expected = { ...event, id: h['webhook-id'] };
    expect(verifyWebhook(body, h, secret)).toEqual(expected);
    expect(verifyWebhook(new TextEncoder().encode(body), new Headers(h), secret)).toEqual(expected);
    expect(verifyWebhook(new TextEncoder().encode(body).buffer, { ...h, 'WEBHOOK-ID': undefined }, secret)).toEqual(
      expected,
    );
    // Node's IncomingHttpHeaders: lower case names, a repeated header as an array.
    const node = { ...h, 'webhook-id': [h['webhook-id'], 'msg_other'] };
    expect(verifyWebhook(body, node, [secret])).toEqual(expected);
    const verified = verifyWebhook(body, h, secret);
    if (verified.type === 'video.completed') expect(verified.data.download_url).toBe(event.data.download_url);
    // The small entry point verifies the same.
    expect(small.verifyWebhook(body, h, secret)).toEqual(expected);
  });

  it('accepts any secret of a rotation, in either order, one string or a list', () => {
    const both = signed(body, new Date(), [secret, other]);
    expect(verifyWebhook(body, both, `${other} ${secret}`).id).toBe(both['webhook-id']);
    const onlyOld = signed(body, new Date(), [other]);
    expect(verifyWebhook(body, onlyOld, [secret, other]).type).toBe('video.completed');
    expect(verifyWebhook(body, onlyOld, `${secret},${other}`).type).toBe('video.completed');
  });

  it('refuses what does not verify, saying why', () => {
    const h = signed();
    expect(code(() => verifyWebhook(`${body} `, h, secret))).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(code(() => verifyWebhook(body.replace('completed', 'failed'), h, secret))).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(code(() => verifyWebhook(body, h, other))).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(code(() => verifyWebhook(body, { ...h, 'webhook-id': 'msg_replayed' }, secret))).toBe(
      'WEBHOOK_SIGNATURE_INVALID',
    );
    // Outside the 5 minutes either way: a replay of an old delivery, a clock far ahead.
    expect(code(() => verifyWebhook(body, signed(body, new Date(Date.now() - 10 * 60_000)), secret))).toBe(
      'WEBHOOK_TIMESTAMP_OUT_OF_RANGE',
    );
    expect(code(() => verifyWebhook(body, signed(body, new Date(Date.now() + 10 * 60_000)), secret))).toBe(
      'WEBHOOK_TIMESTAMP_OUT_OF_RANGE',
    );
    expect(code(() => verifyWebhook(body, { 'webhook-id': 'x' }, secret))).toBe('WEBHOOK_HEADERS_MISSING');
    expect(code(() => verifyWebhook(body, h, ''))).toBe('WEBHOOK_SECRET_INVALID');
    expect(code(() => verifyWebhook(body, h, 'whsec_'))).toBe('WEBHOOK_SECRET_INVALID');
    // Signed, but not an event: refused too.
    const notEvent = '{"hello":"world"}';
    expect(code(() => verifyWebhook(notEvent, signed(notEvent), secret))).toBe('WEBHOOK_PAYLOAD_INVALID');
    const notJson = 'plain text';
    expect(code(() => verifyWebhook(notJson, signed(notJson), secret))).toBe('WEBHOOK_PAYLOAD_INVALID');
  });

  it('hands out an event type it does not know (a newer relay), for the receiver to leave', () => {
    const future = JSON.stringify({ type: 'video.archived', timestamp: event.timestamp, data: { video_id: 'v' } });
    expect(verifyWebhook(future, signed(future), secret).type).toBe('video.archived');
  });

  it('is a VideoApiError with kind "webhook", and never shows the secret', () => {
    let error: unknown;
    try {
      verifyWebhook(body, signed(), other);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ kind: 'webhook', name: 'WebhookVerificationError' });
    expect(String((error as Error).message)).not.toContain(other.slice(6));
  });
});
