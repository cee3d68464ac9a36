// The pacer's decisions on Redis, one Lua script each: a script runs atomically, so two processes
// asking at once cannot both take the one free place, and its time is Redis's own (TIME), so the
// clocks of the machines asking do not matter. Every key written gets a TTL (`keep`), past the latest
// deadline it holds. All durations are milliseconds of real time; the store converts.
//
// Keys of one account (one hash tag, so that a cluster keeps them on one node):
//   {a}:A, {a}:B          hash  lastAt, blockedUntil, slowdown, limit, windowMs, learnedUntil (8.1, per class;
//                               a policy read holds one window after the answer that said it)
//   {a}:A:lease, :B:lease zset  places in flight → when they lapse unless renewed
//   {a}:run               zset  running videos → when their slot lapses (the polling limit of 4.7);
//                               `start:<lease>` → a start in flight
//   {a}:acct              hash  fullUntil (a 503), checkedAt (the last status read asked for)
//   {a}:peers             zset  processes pacing the account → when they count no more
//   {a}:wake              channel: a place was given back; sleepers look again

const PRELUDE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function keep(key, ms)
  local left = redis.call('PTTL', key)
  if left == -1 or (left >= 0 and left < ms) then redis.call('PEXPIRE', key, math.ceil(ms)) end
end
local function num(v, default) return tonumber(v) or default end
`;

/** KEYS cls, lease, run, acct, peers. ARGV id, gap, busy, starts, maxRunning, canCheck, pollMs, leaseMs, peek, peer, peerTtl, pad. */
export const TAKE = `${PRELUDE}
local id, gap, busy = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local starts, maxRunning, canCheck = ARGV[4] == '1', tonumber(ARGV[5]), ARGV[6] == '1'
local pollMs, leaseMs, peek = tonumber(ARGV[7]), tonumber(ARGV[8]), ARGV[9] == '1'
local peer, peerTtl, pad = ARGV[10], tonumber(ARGV[11]), tonumber(ARGV[12])

redis.call('ZADD', KEYS[5], now + peerTtl, peer)
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
keep(KEYS[5], peerTtl + pad)
local peers = redis.call('ZCARD', KEYS[5])

local c = redis.call('HMGET', KEYS[1], 'lastAt', 'blockedUntil', 'slowdown', 'limit', 'windowMs', 'learnedUntil')
local lastAt, blockedUntil = num(c[1], -1e15), num(c[2], 0)
local limit, windowMs = '', ''
if num(c[6], 0) > now then limit, windowMs = c[4] or '', c[5] or '' end
-- A place whose process stopped renewing it: its answer arrived, at the latest, when the place lapsed.
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'WITHSCORES')
if #lapsed > 0 then
  for i = 2, #lapsed, 2 do lastAt = math.max(lastAt, tonumber(lapsed[i])) end
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  redis.call('HSET', KEYS[1], 'lastAt', lastAt)
  keep(KEYS[1], pad)
end

local wait
if redis.call('ZCARD', KEYS[2]) > 0 then wait = busy
else wait = math.max(0, lastAt + gap - now, blockedUntil - now) end

-- Slots of videos unseen for the polling limit, and of starts whose process died, are free again.
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local running = redis.call('ZCARD', KEYS[3])
-- The running videos (oldest first) and how long each slot lasts: a process that loses Redis knows them.
local videos = {}
local members = redis.call('ZRANGE', KEYS[3], 0, -1, 'WITHSCORES')
for i = 1, #members, 2 do
  if string.sub(members[i], 1, 6) ~= 'start:' then
    videos[#videos + 1] = members[i]
    videos[#videos + 1] = tostring(tonumber(members[i + 1]) - now)
  end
end
local check = ''
if wait == 0 and starts then
  local a = redis.call('HMGET', KEYS[4], 'fullUntil', 'checkedAt')
  wait = math.max(0, num(a[1], 0) - now)
  if wait == 0 and running >= maxRunning then
    if canCheck and now - num(a[2], -1e15) >= pollMs then
      for _, m in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
        if string.sub(m, 1, 6) ~= 'start:' then check = m break end
      end
    end
    if check ~= '' then
      redis.call('HSET', KEYS[4], 'checkedAt', now)
      keep(KEYS[4], pad)
    else
      wait = pollMs
    end
  end
end

local taken = 0
if not peek and wait == 0 and check == '' then
  taken = 1
  redis.call('ZADD', KEYS[2], now + leaseMs, id)
  keep(KEYS[2], leaseMs + pad)
  if starts then
    redis.call('ZADD', KEYS[3], now + leaseMs, 'start:' .. id)
    keep(KEYS[3], leaseMs + pad)
    running = running + 1
  end
end
return {taken, tostring(wait), check, tostring(now - lastAt), tostring(math.max(0, blockedUntil - now)),
  c[3] or '1', limit, windowMs, running, peers, videos}
`;

/** KEYS cls, lease, run, acct. ARGV id, starts, limit, windowMs, blockFor, slowFactor, slowMax, fullFor, started, finished, runTtl, pad, channel. */
export const SETTLE = `${PRELUDE}
local id, starts = ARGV[1], ARGV[2] == '1'
local pad, runTtl = tonumber(ARGV[12]), tonumber(ARGV[11])
redis.call('ZREM', KEYS[2], id)
if starts then redis.call('ZREM', KEYS[3], 'start:' .. id) end
local c = redis.call('HMGET', KEYS[1], 'lastAt', 'blockedUntil', 'slowdown')
local blockedUntil = num(c[2], 0)
redis.call('HSET', KEYS[1], 'lastAt', math.max(num(c[1], -1e15), now))
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[1], 'limit', ARGV[3], 'windowMs', ARGV[4], 'learnedUntil', now + tonumber(ARGV[4]))
end
if ARGV[5] ~= '' then
  blockedUntil = math.max(blockedUntil, now + tonumber(ARGV[5]))
  redis.call('HSET', KEYS[1], 'blockedUntil', blockedUntil)
end
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[1], 'slowdown', tostring(math.min(num(c[3], 1) * tonumber(ARGV[6]), tonumber(ARGV[7]))))
end
keep(KEYS[1], math.max(0, blockedUntil - now) + pad)
if ARGV[8] ~= '' then
  local fullUntil = math.max(num(redis.call('HGET', KEYS[4], 'fullUntil'), 0), now + tonumber(ARGV[8]))
  redis.call('HSET', KEYS[4], 'fullUntil', fullUntil)
  keep(KEYS[4], fullUntil - now + pad)
end
if ARGV[9] ~= '' then
  redis.call('ZADD', KEYS[3], now + runTtl, ARGV[9])
  keep(KEYS[3], runTtl + pad)
end
if ARGV[10] ~= '' then redis.call('ZREM', KEYS[3], ARGV[10]) end
redis.call('PUBLISH', ARGV[13], '1')
return 1
`;

/** KEYS lease, run. ARGV id, leaseMs, starts, pad: the process holding the place is alive. */
export const RENEW = `${PRELUDE}
local leaseMs, pad = tonumber(ARGV[2]), tonumber(ARGV[4])
redis.call('ZADD', KEYS[1], 'XX', now + leaseMs, ARGV[1])
keep(KEYS[1], leaseMs + pad)
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[2], 'XX', now + leaseMs, 'start:' .. ARGV[1])
  keep(KEYS[2], leaseMs + pad)
end
return 1
`;

/** KEYS run. ARGV pad, then id, ttl pairs: videos known running (noteRunning, or a process's own after an outage). */
export const NOTE_RUNNING = `${PRELUDE}
local pad = tonumber(ARGV[1])
for i = 2, #ARGV, 2 do
  local deadline = now + tonumber(ARGV[i + 1])
  local score = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[i]))
  if not score or score < deadline then redis.call('ZADD', KEYS[1], deadline, ARGV[i]) end
  keep(KEYS[1], tonumber(ARGV[i + 1]) + pad)
end
return 1
`;

/** KEYS cls. ARGV lastAgo ('' when none), blockFor, slowdown, pad: what one process knows of a class, merged (max). */
export const MERGE_CLASS = `${PRELUDE}
local pad = tonumber(ARGV[4])
local c = redis.call('HMGET', KEYS[1], 'lastAt', 'blockedUntil', 'slowdown')
local blockedUntil = math.max(num(c[2], 0), now + tonumber(ARGV[2]))
if ARGV[1] ~= '' then redis.call('HSET', KEYS[1], 'lastAt', math.max(num(c[1], -1e15), now - tonumber(ARGV[1]))) end
redis.call('HSET', KEYS[1], 'blockedUntil', blockedUntil, 'slowdown', tostring(math.max(num(c[3], 1), tonumber(ARGV[3]))))
keep(KEYS[1], math.max(0, blockedUntil - now) + pad)
return 1
`;

/** KEYS acct. ARGV fullFor, pad. */
export const MERGE_FULL = `${PRELUDE}
local fullUntil = math.max(num(redis.call('HGET', KEYS[1], 'fullUntil'), 0), now + tonumber(ARGV[1]))
redis.call('HSET', KEYS[1], 'fullUntil', fullUntil)
keep(KEYS[1], fullUntil - now + tonumber(ARGV[2]))
return 1
`;

/**
 * KEYS clsA, clsB, leaseA, leaseB, run, acct, peers: the account's schedule as it stands, read only
 * (an operator's view: `videogen pacing`). Per class: places in flight, since the last answer ('' when
 * none), blocked for, slowdown, limit, windowMs; then running videos ({id, lapses in} each), starts in flight,
 * full for, processes.
 */
export const INSPECT = `${PRELUDE}
local out = {}
for i = 1, 2 do
  local c = redis.call('HMGET', KEYS[i], 'lastAt', 'blockedUntil', 'slowdown', 'limit', 'windowMs', 'learnedUntil')
  local lastAt = tonumber(c[1])
  local held = num(c[6], 0) > now
  out[#out + 1] = {redis.call('ZCOUNT', KEYS[i + 2], now, '+inf'), lastAt and tostring(now - lastAt) or '',
    tostring(math.max(0, num(c[2], 0) - now)), c[3] or '1', held and c[4] or '', held and c[5] or ''}
end
local running, starts = {}, 0
local members = redis.call('ZRANGEBYSCORE', KEYS[5], now, '+inf', 'WITHSCORES')
for i = 1, #members, 2 do
  if string.sub(members[i], 1, 6) == 'start:' then starts = starts + 1
  else
    running[#running + 1] = {members[i], tostring(tonumber(members[i + 1]) - now)}
  end
end
out[#out + 1] = running
out[#out + 1] = starts
out[#out + 1] = tostring(math.max(0, num(redis.call('HGET', KEYS[6], 'fullUntil'), 0) - now))
out[#out + 1] = redis.call('ZCOUNT', KEYS[7], now, '+inf')
return out
`;
