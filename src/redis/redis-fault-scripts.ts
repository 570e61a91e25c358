/**
 * The Lua scripts of the Redis fault rules (redis-fault-rules.ts). Each runs atomically, so every
 * instance counts a call against the same counters. A tenant's rules are two keys after its
 * prefix `novu-mock:{tenant}:` (one hash tag, one cluster node):
 *   faults       hash: v (the rules' version: a token changed with every rule added or removed),
 *                d:ID (the rule's JSON as added), m:ID / a:ID (matched / applied), t:ID (times
 *                left, when limited), n:ID (everyNth, when set)
 *   fault-order  list of the rule ids, oldest first
 * A tenant without rules has neither key, and version ''.
 */

/** Reads one rule as {rule JSON, matched, applied, times left or ''}; removes one, the keys with the last. */
const RULES = `
local hash, order = KEYS[1], KEYS[2]
local function kept(id)
  return {redis.call('HGET', hash, 'd:' .. id), redis.call('HGET', hash, 'm:' .. id), redis.call('HGET', hash, 'a:' .. id), redis.call('HGET', hash, 't:' .. id) or ''}
end
local function drop(id, token)
  redis.call('HDEL', hash, 'd:' .. id, 'm:' .. id, 'a:' .. id, 't:' .. id, 'n:' .. id)
  redis.call('LREM', order, 0, id)
  if redis.call('LLEN', order) == 0 then redis.call('DEL', hash) else redis.call('HSET', hash, 'v', token) end
end
`

/** ARGV: id, rule JSON, bound of rules, new version, times ('' none), everyNth ('' none). Answers 1, or 0 at the bound. */
export const ADD = `${RULES}
if redis.call('LLEN', order) >= tonumber(ARGV[3]) then return 0 end
local id = ARGV[1]
redis.call('RPUSH', order, id)
redis.call('HSET', hash, 'v', ARGV[4], 'd:' .. id, ARGV[2], 'm:' .. id, 0, 'a:' .. id, 0)
if ARGV[5] ~= '' then redis.call('HSET', hash, 't:' .. id, ARGV[5]) end
if ARGV[6] ~= '' then redis.call('HSET', hash, 'n:' .. id, ARGV[6]) end
return 1
`

/** Answers every rule, oldest first, each as kept() reads it. */
export const LIST = `${RULES}
local answer = {}
for _, id in ipairs(redis.call('LRANGE', order, 0, -1)) do table.insert(answer, kept(id)) end
return answer
`

/** ARGV: id, new version. Answers the rule removed as kept() reads it, or {} when there is none. */
export const REMOVE = `${RULES}
if redis.call('HEXISTS', hash, 'd:' .. ARGV[1]) == 0 then return {} end
local rule = kept(ARGV[1])
drop(ARGV[1], ARGV[2])
return rule
`

/** Answers how many rules were removed. */
export const CLEAR = `${RULES}
local cleared = redis.call('LLEN', order)
redis.call('DEL', hash, order)
return cleared
`

/**
 * ARGV: the version the caller matched against, a new version (used if a rule runs out), then the
 * ids of the rules that match the call, oldest first. When the version is another, counts nothing
 * and answers {'rules', version, rule JSON…} for the caller to match again; otherwise counts the
 * call against each rule and answers {'counted', version, {ids applied}, {ids removed}}.
 */
export const APPLY = `${RULES}
local v = redis.call('HGET', hash, 'v') or ''
if v ~= ARGV[1] then
  local answer = {'rules', v}
  for _, id in ipairs(redis.call('LRANGE', order, 0, -1)) do table.insert(answer, redis.call('HGET', hash, 'd:' .. id)) end
  return answer
end
local applied, removed = {}, {}
for i = 3, #ARGV do
  local id = ARGV[i]
  local matched = redis.call('HINCRBY', hash, 'm:' .. id, 1)
  if matched % tonumber(redis.call('HGET', hash, 'n:' .. id) or '1') == 0 then
    redis.call('HINCRBY', hash, 'a:' .. id, 1)
    table.insert(applied, id)
    local left = redis.call('HGET', hash, 't:' .. id)
    if left and tonumber(left) <= 1 then
      drop(id, ARGV[2])
      table.insert(removed, id)
    elseif left then
      redis.call('HINCRBY', hash, 't:' .. id, -1)
    end
  end
end
if #removed > 0 then v = redis.call('HGET', hash, 'v') or '' end
return {'counted', v, applied, removed}
`
