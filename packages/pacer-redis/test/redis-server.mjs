// Real Redis processes on free ports, started and stopped by the tests (Debian's redis-server and
// redis-sentinel; .ci/run installs them): one server, a 3-master Redis Cluster (redis-cli --cluster
// create), a primary with a replica behind one Sentinel. Also used by packages/replica-tests and the
// replica benchmark.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** A Redis process (`redis-server ARGS` or `redis-sentinel FILE`) that says it is ready; kill() is kill -9. */
async function launch(command, args, ready) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise((resolve, reject) => {
    let out = '';
    const deadline = setTimeout(() => reject(new Error(`${command} did not start: ${out}`)), 20_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (ready.test(out)) {
        clearTimeout(deadline);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(deadline);
      reject(new Error(`${command} exited (${code}): ${out}`));
    });
  });
  return child;
}

async function killChild(c) {
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  const exited = new Promise((r) => c.once('exit', r));
  c.kill('SIGKILL');
  await exited;
}

/**
 * `redis-server --port P --save '' --appendonly no [ARGS]` (e.g. `--requirepass`, `--maxmemory`,
 * `--enable-debug-command local` for DEBUG SLEEP): kill() is kill -9, restart() starts it again, empty, on P.
 * Its directory is a temporary one (a replica writes the primary's snapshot there even without `save`).
 */
export async function startRedis({ args = [] } = {}) {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'videogen-redis-'));
  let child;
  const start = async () => {
    child = await launch(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', ...args],
      /Ready to accept connections/i,
    );
  };
  await start();
  const kill = () => killChild(child);
  const stop = async () => {
    await kill();
    await rm(dir, { recursive: true, force: true });
  };
  return { port, url: `redis://127.0.0.1:${port}/0`, kill, restart: start, stop };
}

/** `redis-cli -p PORT ARGS…` → its output. */
export async function redisCli(port, ...args) {
  const { stdout } = await run('redis-cli', ['-p', String(port), ...args]);
  return stdout.trim();
}

/** Polls `check` until it returns true (every 100 ms, at most `ms`). */
async function until(check, ms, what) {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A Redis Cluster of 3 masters (no replicas), each on a free port; `nodes[i].port`, `stop()`. */
export async function startCluster() {
  const dir = await mkdtemp(join(tmpdir(), 'videogen-cluster-'));
  const nodes = [];
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    const child = await launch(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '2000',
      ],
      /Ready to accept connections/i,
    );
    nodes.push({ port, url: `redis://127.0.0.1:${port}`, child });
  }
  const stop = async () => {
    await Promise.all(nodes.map((n) => killChild(n.child)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await run('redis-cli', [
      '--cluster',
      'create',
      ...nodes.map((n) => `127.0.0.1:${n.port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    await until(
      async () =>
        (await Promise.all(nodes.map((n) => redisCli(n.port, 'cluster', 'info')))).every((i) =>
          /cluster_state:ok/.test(i),
        ),
      20_000,
      'the cluster to be ok',
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { nodes, stop };
}

/**
 * A primary, its replica and one Sentinel watching them as `mymaster` (quorum 1, down after 1 s): kill
 * the primary and the Sentinel promotes the replica. `url`: the redis-sentinel:// URL of the set.
 */
export async function startSentinelSet() {
  const dir = await mkdtemp(join(tmpdir(), 'videogen-sentinel-'));
  const primary = await startRedis();
  const replica = await startRedis({ args: ['--replicaof', '127.0.0.1', String(primary.port)] });
  await until(
    async () => /master_link_status:up/.test(await redisCli(replica.port, 'info', 'replication')),
    20_000,
    'the replica to sync',
  );
  const port = await freePort();
  const conf = join(dir, 'sentinel.conf');
  await writeFile(
    conf,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor mymaster 127.0.0.1 ${primary.port} 1`,
      'sentinel down-after-milliseconds mymaster 1000',
      'sentinel failover-timeout mymaster 5000',
      '',
    ].join('\n'),
  );
  const sentinel = await launch('redis-sentinel', [conf], /Sentinel ID is|monitor master/i);
  // A failover needs the replica known to the Sentinel (it learns it from the primary's INFO).
  await until(
    async () => (await redisCli(port, 'sentinel', 'replicas', 'mymaster')).includes(String(replica.port)),
    20_000,
    'the Sentinel to know the replica',
  );
  const stop = async () => {
    await killChild(sentinel);
    await replica.stop();
    await primary.stop();
    await rm(dir, { recursive: true, force: true });
  };
  return {
    primary,
    replica,
    sentinelPort: port,
    url: `redis-sentinel://127.0.0.1:${port}/0#mymaster`,
    /** Resolves once the Sentinel names `port` as the primary. */
    primaryIs: (p) =>
      until(
        async () => (await redisCli(port, 'sentinel', 'get-master-addr-by-name', 'mymaster')).endsWith(String(p)),
        30_000,
        `port ${p} to be the primary`,
      ),
    stop,
  };
}
