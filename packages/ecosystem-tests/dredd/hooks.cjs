// Dredd hooks, as its users write them for this API: only the success transactions run (Dredd makes one
// transaction per documented status, and sends each the same example request), each one request spacing of
// the strictest rate-limit class after the previous (DREDD_SPACING_MS), since Dredd sends back to back.
const hooks = require('hooks');

const spacingMs = Number(process.env.DREDD_SPACING_MS ?? 5000);
hooks.beforeEach((transaction, done) => {
  if (!/^2/.test(transaction.expected.statusCode)) transaction.skip = true;
  setTimeout(done, transaction.skip ? 0 : spacingMs);
});
