// The relay's operations on Redis, one Lua script each: atomic, on Redis's clock (TIME), every key
// declared (KEYS) and in one hash slot (the account's hash tag), so that they run on Redis 7.0 alone
// and on a Cluster. The records are JSON strings the scripts never decode (Lua's cjson turns an empty
// array into an object): fences, leases and due times live beside them.
//
// Keys, all `videogen:relay:{H}:…` (H: a hash of the account's name):
//   records  HASH  id → record JSON (a video's, or '@discovery')
//   due      ZSET  id → when due (ms)
//   leases   ZSET  id → leased until (ms)
//   fences   HASH  id → the fence of the last claim
//   meta     HASH  epoch, seq (the fence counter)
//   done     ZSET  video id → when its work was done (ms): remembered for a while
//   seen     ZSET  video id → created_at (ms) of the videos listed lately
//   dead     HASH  event id → dead letter JSON
//   deadq    ZSET  event id → when given up (ms)

const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** KEYS: records due leases fences meta. ARGV: max leaseMs epoch discoveryJson discoveryId → {dueIn|-1, epoch, initialized, id, fence, record, …} */
export const CLAIM = `${NOW}
local max, lease = tonumber(ARGV[1]), tonumber(ARGV[2])
local initialized = 0
if redis.call('HSETNX', KEYS[5], 'epoch', ARGV[3]) == 1 then initialized = 1 end
if redis.call('HSETNX', KEYS[1], ARGV[5], ARGV[4]) == 1 then
  redis.call('ZADD', KEYS[2], now, ARGV[5])
end
local ids = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, max)
local out = {}
for _, id in ipairs(ids) do
  local rec = redis.call('HGET', KEYS[1], id)
  if rec then
    local fence = redis.call('HINCRBY', KEYS[5], 'seq', 1)
    redis.call('HSET', KEYS[4], id, fence)
    redis.call('ZADD', KEYS[3], now + lease, id)
    redis.call('ZADD', KEYS[2], now + lease, id)
    out[#out + 1] = id
    out[#out + 1] = fence
    out[#out + 1] = rec
  else
    redis.call('ZREM', KEYS[2], id)
    redis.call('ZREM', KEYS[3], id)
  end
end
local nxt = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
local dueIn = -1
if nxt[2] then dueIn = math.max(0, tonumber(nxt[2]) - now) end
return {dueIn, redis.call('HGET', KEYS[5], 'epoch'), initialized, out}
`;

/** KEYS: due leases fences. ARGV: id fence leaseMs → 1 | 0 */
export const RENEW = `${NOW}
if tostring(redis.call('HGET', KEYS[3], ARGV[1])) ~= ARGV[2] then return 0 end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[1])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
return 1
`;

/**
 * KEYS: records due leases fences done seen dead deadq.
 * ARGV: id fence record('' = done) dueIn('' = done) doneKeepMs discoveryId forgetSeenBefore('')
 *       nDead [eventId json]* nUndead [eventId]* nWatch [videoId json dueIn]* nSeen [videoId createdAt]*
 * → 1 | 0
 */
export const RELEASE = `${NOW}
local id = ARGV[1]
if tostring(redis.call('HGET', KEYS[4], id)) ~= ARGV[2] then return 0 end
redis.call('ZREM', KEYS[3], id)
if ARGV[3] == '' or ARGV[4] == '' then
  redis.call('HDEL', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('HDEL', KEYS[4], id)
  if id ~= ARGV[6] then redis.call('ZADD', KEYS[5], now, id) end
else
  redis.call('HSET', KEYS[1], id, ARGV[3])
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), id)
  redis.call('ZREM', KEYS[5], id)
end
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now - tonumber(ARGV[5]))
if ARGV[7] ~= '' then redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', '(' .. ARGV[7]) end
local i = 8
local n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  redis.call('HSET', KEYS[7], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[8], now, ARGV[i])
  i = i + 2
end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  redis.call('HDEL', KEYS[7], ARGV[i])
  redis.call('ZREM', KEYS[8], ARGV[i])
  i = i + 1
end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  local vid = ARGV[i]
  if redis.call('HEXISTS', KEYS[1], vid) == 0 and not redis.call('ZSCORE', KEYS[5], vid) then
    redis.call('HSET', KEYS[1], vid, ARGV[i + 1])
    redis.call('ZADD', KEYS[2], now + tonumber(ARGV[i + 2]), vid)
  end
  i = i + 3
end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  redis.call('ZADD', KEYS[6], tonumber(ARGV[i + 1]), ARGV[i])
  i = i + 2
end
return 1
`;

/** KEYS: records fences dead deadq. ARGV: id fence record nDead [eventId json]* → 1 | 0 */
export const SAVE = `${NOW}
if tostring(redis.call('HGET', KEYS[2], ARGV[1])) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
local i = 5
for _ = 1, tonumber(ARGV[4]) do
  redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[4], now, ARGV[i])
  i = i + 2
end
return 1
`;

/** KEYS: records due leases fences meta. ARGV: id leaseMs → {fence, record|false} | false (leased) */
export const TAKE = `${NOW}
local id = ARGV[1]
local leased = redis.call('ZSCORE', KEYS[3], id)
if leased and tonumber(leased) > now then return false end
local fence = redis.call('HINCRBY', KEYS[5], 'seq', 1)
redis.call('HSET', KEYS[4], id, fence)
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), id)
local rec = redis.call('HGET', KEYS[1], id)
if rec then redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), id) end
return {fence, rec}
`;

/** KEYS: records done seen. ARGV: ids → {0|1, …} */
export const KNOWN = `
local out = {}
for i, id in ipairs(ARGV) do
  if redis.call('HEXISTS', KEYS[1], id) == 1 or redis.call('ZSCORE', KEYS[2], id) or redis.call('ZSCORE', KEYS[3], id) then
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
`;

/** KEYS: records due done. ARGV: id json dueIn → 'added' | 'known' | 'done' */
export const WATCH = `${NOW}
local id = ARGV[1]
if redis.call('ZSCORE', KEYS[3], id) then return 'done' end
if redis.call('HEXISTS', KEYS[1], id) == 1 then return 'known' end
redis.call('HSET', KEYS[1], id, ARGV[2])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), id)
return 'added'
`;
