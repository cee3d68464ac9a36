// @videogen/client/webhooks: the receiving side alone (verifyWebhook and the event types), for a
// receiver that bundles nothing else of the client (a Worker, a Lambda). The main entry exports the same.
export { verifyWebhook, webhookSecrets, WEBHOOK_SECRET_VARIABLE } from './webhooks.js';
export type {
  WebhookEvent,
  WebhookEventType,
  VerifiedWebhook,
  VideoCompletedEvent,
  VideoFailedEvent,
  VideoExpiredEvent,
  VideoEventData,
  WebhookHeaders,
} from './webhooks.js';
export { WebhookVerificationError, VideoApiError, isVideoApiError } from './errors.js';
