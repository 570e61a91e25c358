import { RETENTION_MS } from '../../policies/idempotency/key-rules.ts'
import { RELOAD } from './change-texts.ts'

/**
 * The Lua scripts of the Redis backend (redis-backend.ts). Each runs atomically in Redis, so a
 * change is stored whole or not at all, and a process killed at any moment leaves no half of one.
 * Every key a script touches belongs to one tenant and carries its hash tag, so the scripts run on
 * Redis Cluster too. A tenant's keys, after its prefix `novu-mock:{tenant}:`:
 *   meta      hash: v (the tenant's version), seq (the last seq given), seed (a seed of its own, JSON),
 *             clock (its clock, JSON of clock-setting.ts; absent: the starting clock, read by the
 *             rate limit's script too), faults (its fault rules with their counters, JSON of
 *             TenantFaults; absent: none), acks (always 0: written to wait for the replicas, redis-wait.ts)
 *   rows      hash: `kind id` → `seq\n record JSON` (the record `null`: a seeded one removed)
 *   log       list: `version\n change JSON` (or `reload`, for one too large), the newest LOG_LENGTH changes
 *   snapshots list of snapshot names, in the order saved; `snapshot-at` hash: name → createdAt
 *   snap:NAME hash: a snapshot's rows, as `rows`
 *   staged:ID hash: a large replace's rows, written in steps (STAGE) before one script makes them
 *             `rows`; it expires unless made so (a process stopped half-way)
 *   key-records hash: idempotency key → its finished record (keyRecordJson); `keys` sorted set: the
 *             keys, oldest first (scored by meta's counter `keys`). Kept: the tenant's newest
 *             `keep`, none of the oldest expired at the time of the latest one stored.
 */

/** Changes kept per tenant for processes behind it to replay; one further behind reloads the tenant. */
export const LOG_LENGTH = 1000

/**
 * Lua, with `meta` and `rows` the tenant's: writes one row, its seq `keep` (the row's own, or 0),
 * `new` (the next), or a number.
 */
const PUT_ROW = `
local function putRow(field, seq, record)
  if seq == 'keep' then
    local old = redis.call('HGET', rows, field)
    seq = old and string.match(old, '^(%d+)') or '0'
  elseif seq == 'new' then
    seq = tostring(redis.call('HINCRBY', meta, 'seq', 1))
  end
  redis.call('HSET', rows, field, seq .. '\\n' .. record)
end
`

/**
 * Lua, with `meta`, `keyRecords` and `keyOrder` the tenant's: keeps a finished idempotency record
 * (its JSON ends with its `expiresAt`, keyRecordJson) as its key's newest; drops the oldest past
 * the tenant's `keep`, and the oldest ones expired at the tenant's time then (a day before the new
 * record's expiry), which are the first to expire: a record's expiry never falls behind an older one's.
 */
const KEEP_KEY_RECORD = `
local function expiryOf(json) return tonumber(string.match(json or '', '"expiresAt":(-?%d+)}$') or '0') end
local function keepKeyRecord(key, json, keep)
  redis.call('HSET', keyRecords, key, json)
  redis.call('ZADD', keyOrder, redis.call('HINCRBY', meta, 'keys', 1), key)
  local now, over = expiryOf(json) - ${RETENTION_MS}, redis.call('ZCARD', keyOrder) - tonumber(keep)
  while true do
    local oldest = redis.call('ZRANGE', keyOrder, 0, 0)[1]
    if oldest == nil or oldest == key then break end
    if over <= 0 and expiryOf(redis.call('HGET', keyRecords, oldest)) > now then break end
    redis.call('HDEL', keyRecords, oldest)
    redis.call('ZREM', keyOrder, oldest)
    over = over - 1
  end
end
`

/**
 * KEYS: meta, rows, log, snapshots, snapshot-at, the snapshot's rows (the staged rows for
 * `replaceStaged`, or any key of the tenant), key-records, keys. ARGV: version held, log length,
 * change type (or `replaceStaged`), change JSON, snapshot name (for `keyRecord`: its key),
 * createdAt (for `restampKeyRecords`: the records' new expiry), seed JSON (for
 * `replaceStaged`: the number of fields staged; for `clock` and `faultRules`: the clock's or the
 * rules' JSON, '' for none; for `keyRecord`: the record's JSON, then the records kept), then per
 * row: field, seq, record JSON (PUT_ROW).
 * Answers the new version, or -1 when the tenant is past the version held.
 */
export const WRITE = `
local meta, rows, log, snapshots, snapshotAt, snapshotRows, keyRecords, keyOrder = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]
if tonumber(redis.call('HGET', meta, 'v') or '0') ~= tonumber(ARGV[1]) then return -1 end
local kind, name = ARGV[3], ARGV[5]
${PUT_ROW}
${KEEP_KEY_RECORD}
local function putRows()
  for i = 8, #ARGV, 3 do putRow(ARGV[i], ARGV[i + 1], ARGV[i + 2]) end
end
-- COPY (Redis 6.2) copies a hash in C, many times faster than its fields read and written
-- here; an earlier Redis has none, and the rows are copied here. UNLINK frees a large hash in
-- the background, where DEL would hold Redis for it.
local function copy(from, to)
  redis.call('UNLINK', to)
  if type(redis.pcall('COPY', from, to)) == 'number' then return end
  local all = redis.call('HGETALL', from)
  for i = 1, #all, 1000 do redis.call('HSET', to, unpack(all, i, math.min(i + 999, #all))) end
end
if kind == 'put' then
  putRows()
elseif kind == 'replace' then
  redis.call('UNLINK', rows)
  putRows()
elseif kind == 'replaceStaged' then
  -- KEYS[6] holds the rows staged, ARGV[7] fields of them; fewer when its master failed over
  -- meanwhile, before a replica had them all: then nothing changes, as for a tenant moved on.
  if redis.call('HLEN', snapshotRows) ~= tonumber(ARGV[7]) then
    redis.call('UNLINK', snapshotRows)
    return -1
  end
  redis.call('UNLINK', rows)
  redis.call('RENAME', snapshotRows, rows)
  redis.call('PERSIST', rows)
elseif kind == 'createTenant' then
  redis.call('UNLINK', rows)
  redis.call('HSET', meta, 'seed', ARGV[7])
elseif kind == 'clock' then
  if ARGV[7] == '' then redis.call('HDEL', meta, 'clock') else redis.call('HSET', meta, 'clock', ARGV[7]) end
elseif kind == 'keyRecord' then
  keepKeyRecord(name, ARGV[7], ARGV[8])
elseif kind == 'restampKeyRecords' then
  for _, key in ipairs(redis.call('ZRANGE', keyOrder, 0, -1)) do
    local held = redis.call('HGET', keyRecords, key)
    if held then redis.call('HSET', keyRecords, key, (string.gsub(held, '"expiresAt":-?%d+}$', '"expiresAt":' .. ARGV[6] .. '}'))) end
  end
elseif kind == 'forgetKeyRecords' then
  redis.call('UNLINK', keyRecords, keyOrder)
elseif kind == 'faultRules' then
  if ARGV[7] == '' then redis.call('HDEL', meta, 'faults') else redis.call('HSET', meta, 'faults', ARGV[7]) end
elseif kind == 'saveSnapshot' then
  copy(rows, snapshotRows)
  redis.call('LREM', snapshots, 0, name)
  redis.call('RPUSH', snapshots, name)
  redis.call('HSET', snapshotAt, name, ARGV[6])
elseif kind == 'restoreSnapshot' then
  copy(snapshotRows, rows)
elseif kind == 'deleteSnapshot' then
  redis.call('UNLINK', snapshotRows)
  redis.call('LREM', snapshots, 0, name)
  redis.call('HDEL', snapshotAt, name)
end
local v = redis.call('HINCRBY', meta, 'v', 1)
redis.call('RPUSH', log, v .. '\\n' .. ARGV[4])
redis.call('LTRIM', log, -tonumber(ARGV[2]), -1)
return v
`

/**
 * The puts of several transactions of a tenant, in order, as one unit: all stored, each with the
 * idempotency record of the call that made it, or none (the tenant past the version held). A
 * record is listed as a `keyRecord` change of its own after its put's (or `reload`, when longer
 * than the changes listed as they are).
 * A record's in-flight marker goes with it, if it is still its call's (redis-running-keys.ts).
 * KEYS: meta, rows, log, key-records, keys, then per put its record's marker (or meta, for none).
 * ARGV: version held, log length, the tenant's JSON, the longest record listed, then per put: its
 * change JSON for the log, its record's JSON (or ''), the record's key, the records kept and its
 * marker's value, its number of rows, and per row: field, seq, record JSON (PUT_ROW).
 * Answers the new version, or -1.
 */
export const PUTS = `
local meta, rows, log, keyRecords, keyOrder = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
if tonumber(redis.call('HGET', meta, 'v') or '0') ~= tonumber(ARGV[1]) then return -1 end
${PUT_ROW}
${KEEP_KEY_RECORD}
local at, v = 5, 0
for put = 6, #KEYS do
  local listed, record, key, keep, marker, count = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], ARGV[at + 4], tonumber(ARGV[at + 5])
  at = at + 6
  for i = at, at + 3 * count - 1, 3 do putRow(ARGV[i], ARGV[i + 1], ARGV[i + 2]) end
  at = at + 3 * count
  v = redis.call('HINCRBY', meta, 'v', 1)
  redis.call('RPUSH', log, v .. '\\n' .. listed)
  if record ~= '' then
    keepKeyRecord(key, record, keep)
    if marker ~= '' and redis.call('GET', KEYS[put]) == marker then redis.call('DEL', KEYS[put]) end
    v = redis.call('HINCRBY', meta, 'v', 1)
    local entry = '${RELOAD}'
    if #record <= tonumber(ARGV[4]) then entry = '{"type":"keyRecord","tenant":' .. ARGV[3] .. ',"record":' .. record .. ',"keep":' .. keep .. '}' end
    redis.call('RPUSH', log, v .. '\\n' .. entry)
  end
end
redis.call('LTRIM', log, -tonumber(ARGV[2]), -1)
return v
`

/**
 * KEYS: meta, log, rows, snapshots, snapshot-at, key-records, keys. ARGV: version held (-1: none), the snapshots' key
 * prefix, the most rows (its own and its snapshots') a whole tenant is answered with ('': any).
 * Answers {v} when the version held is current; {v, 'changes', entry…} with the log's entries past
 * it; {0, 'none'} for a tenant without state; {v, 'large'} for one of more rows than asked; else
 * {v, 'tenant', seed or '', rows, {{name, createdAt, rows}…}, clock or '', fault rules or '',
 * {record JSON…}} (the idempotency records, oldest first).
 */
export const SINCE = `
local meta, log, rows, snapshots, snapshotAt, keyRecords, keyOrder = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
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
local names = redis.call('LRANGE', snapshots, 0, -1)
local most = tonumber(ARGV[3])
if most then
  local count = redis.call('HLEN', rows)
  for _, name in ipairs(names) do count = count + redis.call('HLEN', ARGV[2] .. name) end
  if count > most then return {v, 'large'} end
end
local saved = {}
for _, name in ipairs(names) do
  table.insert(saved, {name, redis.call('HGET', snapshotAt, name), redis.call('HGETALL', ARGV[2] .. name)})
end
local records = {}
for _, key in ipairs(redis.call('ZRANGE', keyOrder, 0, -1)) do
  local record = redis.call('HGET', keyRecords, key)
  if record then table.insert(records, record) end
end
local clock, faults = redis.call('HGET', meta, 'clock') or '', redis.call('HGET', meta, 'faults') or ''
return {v, 'tenant', redis.call('HGET', meta, 'seed') or '', redis.call('HGETALL', rows), saved, clock, faults, records}
`

/**
 * A step of a large replace: rows written to a hash of their own, which no read sees until WRITE
 * (`replaceStaged`) makes it the tenant's rows. KEYS: meta, the staged hash. ARGV: its time to
 * live in ms, then per row: field, seq, record JSON, as WRITE takes them over a new hash (a place
 * kept is 0). Seqs given here and then not used leave a gap: seqs only grow.
 */
export const STAGE = `
local meta, rows = KEYS[1], KEYS[2]
${PUT_ROW}
for i = 2, #ARGV, 3 do putRow(ARGV[i], ARGV[i + 1], ARGV[i + 2]) end
redis.call('PEXPIRE', rows, ARGV[1])
return 1
`
