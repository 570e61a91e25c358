import { KEEP_RECORD } from './redis-key-records.ts'

/**
 * The Lua scripts of the Redis backend (redis-backend.ts). Each runs atomically in Redis, so a
 * change is stored whole or not at all, and a process killed at any moment leaves no half of one.
 * Every key a script touches belongs to one tenant and carries its hash tag, so the scripts run on
 * Redis Cluster too. A tenant's keys, after its prefix `novu-mock:{tenant}:`:
 *   meta      hash: v (the tenant's version), seq (the last seq given), seed (a seed of its own, JSON)
 *   rows      hash: `kind id` → `seq\n record JSON` (the record `null`: a seeded one removed)
 *   log       list: `version\n change JSON` (or `reload`, for one too large), the newest LOG_LENGTH changes
 *   snapshots list of snapshot names, in the order saved; `snapshot-at` hash: name → createdAt
 *   snap:NAME hash: a snapshot's rows, as `rows`
 */

/** Changes kept per tenant for processes behind it to replay; one further behind reloads the tenant. */
export const LOG_LENGTH = 1000

/**
 * KEYS: meta, rows, log, snapshots, snapshot-at, the snapshot's rows (or any key of the tenant),
 * the idempotency record stored with the change (or any key of the tenant).
 * ARGV: version held, log length, change type, change JSON, snapshot name, createdAt, seed JSON,
 * the idempotency record's JSON (or ''), then per row: field, seq (`keep`: the row's own or 0;
 * `new`: the next; or `0`), record JSON.
 * Answers the new version, or -1 when the tenant is past the version held.
 */
export const WRITE = `
local meta, rows, log, snapshots, snapshotAt, snapshotRows, keyRecord = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
if tonumber(redis.call('HGET', meta, 'v') or '0') ~= tonumber(ARGV[1]) then return -1 end
local type, name = ARGV[3], ARGV[5]
local function putRows()
  for i = 9, #ARGV, 3 do
    local seq = ARGV[i + 1]
    if seq == 'keep' then
      local old = redis.call('HGET', rows, ARGV[i])
      seq = old and string.match(old, '^(%d+)') or '0'
    elseif seq == 'new' then
      seq = tostring(redis.call('HINCRBY', meta, 'seq', 1))
    end
    redis.call('HSET', rows, ARGV[i], seq .. '\\n' .. ARGV[i + 2])
  end
end
local function copy(from, to)
  redis.call('DEL', to)
  local all = redis.call('HGETALL', from)
  for i = 1, #all, 1000 do redis.call('HSET', to, unpack(all, i, math.min(i + 999, #all))) end
end
if type == 'put' then
  putRows()
elseif type == 'replace' then
  redis.call('DEL', rows)
  putRows()
elseif type == 'createTenant' then
  redis.call('DEL', rows)
  redis.call('HSET', meta, 'seed', ARGV[7])
elseif type == 'saveSnapshot' then
  copy(rows, snapshotRows)
  redis.call('LREM', snapshots, 0, name)
  redis.call('RPUSH', snapshots, name)
  redis.call('HSET', snapshotAt, name, ARGV[6])
elseif type == 'restoreSnapshot' then
  copy(snapshotRows, rows)
elseif type == 'deleteSnapshot' then
  redis.call('DEL', snapshotRows)
  redis.call('LREM', snapshots, 0, name)
  redis.call('HDEL', snapshotAt, name)
end
if ARGV[8] ~= '' then
${KEEP_RECORD('keyRecord', 'ARGV[8]')}
end
local v = redis.call('HINCRBY', meta, 'v', 1)
redis.call('RPUSH', log, v .. '\\n' .. ARGV[4])
redis.call('LTRIM', log, -tonumber(ARGV[2]), -1)
return v
`

/**
 * KEYS: meta, log, rows, snapshots, snapshot-at. ARGV: version held (-1: none), the snapshots' key prefix.
 * Answers {v} when the version held is current; {v, 'changes', entry…} with the log's entries past
 * it; {0, 'none'} for a tenant without state; else {v, 'tenant', seed or '', rows, {name, createdAt, rows}…}.
 */
export const SINCE = `
local meta, log, rows, snapshots, snapshotAt = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local v = tonumber(redis.call('HGET', meta, 'v') or '0')
local held = tonumber(ARGV[1])
if v == held then return {v} end
if v == 0 then return {0, 'none'} end
if held >= 0 and v > held and redis.call('LLEN', log) >= v - held then
  local answer = redis.call('LRANGE', log, held - v, -1)
  table.insert(answer, 1, 'changes')
  table.insert(answer, 1, v)
  return answer
end
local saved = {}
for _, name in ipairs(redis.call('LRANGE', snapshots, 0, -1)) do
  table.insert(saved, {name, redis.call('HGET', snapshotAt, name), redis.call('HGETALL', ARGV[2] .. name)})
end
return {v, 'tenant', redis.call('HGET', meta, 'seed') or '', redis.call('HGETALL', rows), saved}
`

/** KEYS: the set of tenants with state. ARGV: tenant, bound, `claim` to count it in. Answers 1 when it may be served. */
export const ADMIT = `
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == 'claim' then redis.call('SADD', KEYS[1], ARGV[1]) end
return 1
`
