// The Lua scripts behind the fleet journal: each runs atomically inside Redis, so a check (the lease, the fencing
// token, the history length) and the write it guards cannot be split by another client's write.

/**
 * KEYS: lease, fence, history. ARGV: owner, leaseMs. → [token, history (its records, oldest first)] or [0, holder].
 * The history comes with the lease: a worker that takes a plan reads it next, and one round trip less per plan
 * counts when every reply waits for an fsync.
 */
export const ACQUIRE = `
local holder = redis.call('GET', KEYS[1])
if holder and string.match(holder, '^%d+ (.*)$') ~= ARGV[1] then return {0, holder} end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], token .. ' ' .. ARGV[1], 'PX', ARGV[2])
return {token, redis.call('LRANGE', KEYS[3], 0, -1)}`;

/** KEYS: lease. ARGV: holder ("token owner"), leaseMs. → 1 renewed, 0 lost. */
export const RENEW = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** KEYS: lease. ARGV: holder. → 1 released, 0 not ours. */
export const RELEASE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])`;

/**
 * KEYS: lease, history, done, inflight. ARGV: holder, expectedLength, record, outcome ('' unless a step succeeded),
 * isStep ('1'/'0'). → 'ok' | 'fenced' | 'conflict'. A resend of the last record (a reply lost when the connection
 * dropped) is answered 'ok' without a second copy.
 */
export const APPEND = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'fenced' end
local length = redis.call('LLEN', KEYS[2])
local expected = tonumber(ARGV[2])
if length == expected + 1 and redis.call('LINDEX', KEYS[2], -1) == ARGV[3] then return 'ok' end
if length ~= expected then return 'conflict' end
redis.call('RPUSH', KEYS[2], ARGV[3])
if ARGV[4] ~= '' then redis.call('SET', KEYS[3], ARGV[4]) end
if ARGV[5] == '1' then redis.call('DEL', KEYS[4]) end
return 'ok'`;

/**
 * KEYS: lease, done, inflight. ARGV: holder, planId, leasePrefix, evidence (JSON, '' for none).
 * → {'duplicate', outcome} | {'fenced', ''} | {'busy', holder} | {'acquired', previous in-flight entry or ''}.
 * The in-flight entry (JSON) names the plan and holder that claimed the step, and the evidence its worker read from
 * the world before dispatching it; it is someone else's only while that plan's lease still holds it (the lease
 * expires when its process dies). A previous entry left by a holder that is gone means the step may have taken
 * effect: the claimer checks the world before it runs the step again.
 */
export const BEGIN_STEP = `
local done = redis.call('GET', KEYS[2])
if done then return {'duplicate', done} end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {'fenced', ''} end
local previous = redis.call('GET', KEYS[3])
if previous then
  local owner = cjson.decode(previous)
  if owner.plan ~= ARGV[2] and redis.call('GET', ARGV[3] .. owner.plan) == owner.holder then return {'busy', previous} end
end
local entry = {plan = ARGV[2], holder = ARGV[1]}
if ARGV[4] ~= '' then entry.evidence = ARGV[4] end
redis.call('SET', KEYS[3], cjson.encode(entry))
return {'acquired', previous or ''}`;
