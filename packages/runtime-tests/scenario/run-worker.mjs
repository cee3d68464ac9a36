// Runs a bundled Worker in workerd through miniflare (needs Node >= 22), sends it one request and
// prints the Worker's JSON answer. argv: miniflare module, bundle path, bindings as JSON.
const [miniflarePath, script, bindings, flags] = process.argv.slice(2);
const { Miniflare } = await import(miniflarePath);
const mf = new Miniflare({
  modules: true,
  scriptPath: script,
  compatibilityDate: '2026-07-01',
  compatibilityFlags: JSON.parse(flags),
  bindings: JSON.parse(bindings),
});
try {
  const res = await mf.dispatchFetch('http://worker.test/');
  const text = await res.text();
  if (res.status !== 200) throw new Error(`Worker answered ${res.status}: ${text}`);
  console.log(text);
} finally {
  await mf.dispose();
}
