-- Compare-and-set of a game on its version, with the move's events appended to the game's
-- stream, the idempotency record stored and the deadline index kept, all in one atomic step.
-- KEYS[1] game hash, KEYS[2] event stream, KEYS[3] the game's idempotency hash, then, when
-- ARGV[11] is not '', the outbox (the global stream 'impresario:outbox' on a single server, the
-- game's own staging stream 'game:{id}:outbox' on a cluster, moved on right after), then the
-- deadline index (optional: on a single server; a cluster keeps it in another slot, written
-- after this script)
-- ARGV[1] expected version ('' = the game must not exist yet), ARGV[2] new document,
-- ARGV[3] ttl ms, ARGV[4] idempotency record ('' = none), ARGV[5] its ttl ms,
-- ARGV[6] seq of the first event, ARGV[7] the record's field,
-- ARGV[8] the game's summary for the list of games ('' = none; field 'lobby', lobby.py),
-- ARGV[9] the game's next deadline for the index ('' = leave the index as it is, '-' = the
-- game has none: remove it, else the deadline, epoch seconds), ARGV[10] the game's id (its
-- member there), ARGV[11] '' (no outbox: the game notifies nobody) or '1' (one outbox entry
-- for this write's events: the game id, the first and the last seq), ARGV[12..] the events
-- (JSON)
local v = redis.call('HGET', KEYS[1], 'v')
if ARGV[1] == '' then
  if v then return {0, v} end
  v = '0'
elseif v ~= ARGV[1] then
  return {0, v or ''}
elseif redis.call('HEXISTS', KEYS[1], 'events') == 1 then
  return {0, v}  -- archived: a finished game takes no write (its stream would hide its events)
end
local nv = tonumber(v) + 1
redis.call('HSET', KEYS[1], 'v', nv, 'doc', ARGV[2])
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'lobby', ARGV[8]) end
local seq = tonumber(ARGV[6])
for i = 12, #ARGV do
  redis.call('XADD', KEYS[2], seq .. '-0', 'e', ARGV[i])
  seq = seq + 1
end
local ttl = tonumber(ARGV[3])
redis.call('PEXPIRE', KEYS[1], ttl)
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ttl) end
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[7], ARGV[4])
  redis.call('PEXPIRE', KEYS[3], ARGV[5])
end
local dk = KEYS[4]
if ARGV[11] ~= '' then
  dk = KEYS[5]
  if #ARGV >= 12 then
    redis.call('XADD', KEYS[4], '*', 'g', ARGV[10], 'f', ARGV[6], 'l', seq - 1)
  end
end
if dk and ARGV[9] == '-' then
  redis.call('ZREM', dk, ARGV[10])
elseif dk and ARGV[9] ~= '' then
  redis.call('ZADD', dk, ARGV[9], ARGV[10])
end
return {1, nv}
