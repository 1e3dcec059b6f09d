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

/** append(lease, history, done, inflight, holder, expectedLength, record, outcome, isStep) → 'ok' | 'fenced' | 'conflict'. */
const APPEND_FUNCTION = `
local function append(lease, history, done, inflight, holder, expectedLength, record, outcome, isStep)
  if redis.call('GET', lease) ~= holder then return 'fenced' end
  local length = redis.call('LLEN', history)
  local expected = tonumber(expectedLength)
  if length == expected + 1 and redis.call('LINDEX', history, -1) == record then return 'ok' end
  if length ~= expected then return 'conflict' end
  redis.call('RPUSH', history, record)
  if outcome ~= '' then redis.call('SET', done, outcome) end
  if isStep == '1' then redis.call('DEL', inflight) end
  return 'ok'
end`;

/**
 * begin(lease, done, inflight, holder, planId, leasePrefix, evidence)
 * → {'duplicate', outcome} | {'fenced', ''} | {'busy', holder} | {'acquired', previous in-flight entry or ''}.
 * The in-flight entry (JSON) names the plan and holder that claimed the step, and the evidence its worker read from
 * the world before dispatching it; it is someone else's only while that plan's lease still holds it (the lease
 * expires when its process dies). A previous entry left by another holder that is gone means the step may have taken
 * effect: the claimer checks the world before it runs the step again. The holder's own entry (a claim resent) is not.
 */
const BEGIN_FUNCTION = `
local function begin(lease, done, inflight, holder, planId, leasePrefix, evidence)
  local completed = redis.call('GET', done)
  if completed then return {'duplicate', completed} end
  if redis.call('GET', lease) ~= holder then return {'fenced', ''} end
  local previous = redis.call('GET', inflight)
  if previous then
    local owner = cjson.decode(previous)
    if owner.plan ~= planId and redis.call('GET', leasePrefix .. owner.plan) == owner.holder then return {'busy', previous} end
    if owner.plan == planId and owner.holder == holder then previous = false end
  end
  local entry = {plan = planId, holder = holder}
  if evidence ~= '' then entry.evidence = evidence end
  redis.call('SET', inflight, cjson.encode(entry))
  return {'acquired', previous or ''}
end`;

/**
 * KEYS: lease, history, done, inflight. ARGV: holder, expectedLength, record, outcome ('' unless a step succeeded),
 * isStep ('1'/'0'). → 'ok' | 'fenced' | 'conflict'. A resend of the last record (a reply lost when the connection
 * dropped) is answered 'ok' without a second copy.
 */
export const APPEND = `${APPEND_FUNCTION}
return append(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])`;

/** KEYS: lease, done, inflight. ARGV: holder, planId, leasePrefix, evidence (JSON, '' for none). See BEGIN_FUNCTION. */
export const BEGIN_STEP = `${BEGIN_FUNCTION}
return begin(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4])`;

/**
 * A step's record and the claim of the plan's next step in one script (one fsync'd round trip, not two).
 * KEYS: lease, history, done, inflight, nextDone, nextInflight. ARGV: APPEND's five, then planId, leasePrefix, evidence.
 * → {appended} when the append was refused, else {'ok', claim state, claim detail}.
 */
export const APPEND_THEN_BEGIN = `${APPEND_FUNCTION}${BEGIN_FUNCTION}
local appended = append(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
if appended ~= 'ok' then return {appended} end
local claim = begin(KEYS[1], KEYS[5], KEYS[6], ARGV[1], ARGV[6], ARGV[7], ARGV[8])
return {appended, claim[1], claim[2]}`;

/** KEYS: inflight. ARGV: holder. Drops the holder's own claim of a step it will not run (its plan went elsewhere). */
export const UNCLAIM = `
local entry = redis.call('GET', KEYS[1])
if entry and cjson.decode(entry).holder == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;
