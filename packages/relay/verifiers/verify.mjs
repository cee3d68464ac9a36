// Verifies deliveries with the stock libraries a receiver would use, run on the pinned Node 22 (svix
// declares Node >= 22). stdin: { secrets: [whsec_…], deliveries: [{ headers, body }] }; stdout: one
// result per delivery, per library: 'ok' or the library's error message.
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const { secrets, deliveries } = JSON.parse(input);
const attempt = (f) => {
  try {
    f();
    return 'ok';
  } catch (e) {
    return String(e?.message ?? e);
  }
};
const results = deliveries.map(({ headers, body }) => {
  // Svix reads its own header names too: the same delivery under svix-id, svix-timestamp, svix-signature.
  const svixNamed = {
    'svix-id': headers['webhook-id'],
    'svix-timestamp': headers['webhook-timestamp'],
    'svix-signature': headers['webhook-signature'],
  };
  return Object.fromEntries(
    secrets.flatMap((secret, i) => [
      [`svix#${i}`, attempt(() => new SvixWebhook(secret).verify(body, headers))],
      [`svix-headers#${i}`, attempt(() => new SvixWebhook(secret).verify(body, svixNamed))],
      [`standardwebhooks#${i}`, attempt(() => new StandardWebhook(secret).verify(body, headers))],
    ]),
  );
});
process.stdout.write(JSON.stringify({ node: process.version, results }));
