// This machine's own share of a round trip: requests to an empty server on loopback, sent the way the
// suite sends (fetch, the body read). Calibration subtracts its median from every latency it measures,
// so that a twin adds what the target adds (the network and the target's work), not this client's own
// cost, which a client of the twin pays again; compare reads its spread as the noise of a measurement.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundTrip {
  p50: number;
  p95: number;
  samples: number;
}

/** Round trips to an empty local server, real ms each. */
export async function localRoundTrip(count = 15): Promise<number[]> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const out: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const res = await fetch(url, { headers: { accept: 'application/json' } });
      await res.arrayBuffer();
      out.push(performance.now() - started);
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return out;
}
