// Dredd hooks, as its users write them for this API:
// - only the success transactions run: Dredd makes one transaction per documented status and sends each the
//   same example request, so an error status cannot come back without a hook per case;
// - each one request spacing of the strictest rate-limit class after the previous (DREDD_SPACING_MS), since
//   Dredd sends back to back;
// - with DREDD_CHARSET_HOOK=1, `; charset=utf-8` is taken off the response's content type before validation:
//   Dredd compares content types as exact strings (`application/json; charset=utf-8` ≠ `application/json`).
const hooks = require('hooks');

const spacingMs = Number(process.env.DREDD_SPACING_MS ?? 5000);
hooks.beforeEach((transaction, done) => {
  if (!/^2/.test(transaction.expected.statusCode)) transaction.skip = true;
  setTimeout(done, transaction.skip ? 0 : spacingMs);
});

if (process.env.DREDD_CHARSET_HOOK == '1') {
  hooks.beforeEachValidation((transaction) => {
    const headers = transaction.real.headers;
    if (headers['content-type']) headers['content-type'] = headers['content-type'].replace(/;\s*charset=utf-8$/i, '');
  });
}

// With DREDD_MULTIPART_FORM (the JSON of the generation's example form), the multipart body that Dredd does
// not build for `POST /videos/generate/` (it sends the content type without a boundary and no body).
if (process.env.DREDD_MULTIPART_FORM) {
  const form = JSON.parse(process.env.DREDD_MULTIPART_FORM);
  hooks.beforeEach((transaction) => {
    if (transaction.request.method != 'POST' || !transaction.request.uri.endsWith('/videos/generate/')) return;
    const boundary = 'dredd-hook-boundary';
    const parts = Object.entries(form).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    transaction.request.body = `${parts.join('')}--${boundary}--\r\n`;
    transaction.request.headers['Content-Type'] = `multipart/form-data; boundary=${boundary}`;
  });
}
