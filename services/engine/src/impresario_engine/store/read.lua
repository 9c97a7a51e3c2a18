-- One round trip for a request: the game's version and document, the id of its rematch (if
-- any), and (if asked) an idempotency record. KEYS[1] game hash, KEYS[2] the game's
-- idempotency hash (optional); ARGV[1] the record's field.
local r = redis.call('HMGET', KEYS[1], 'v', 'doc', 'rematch')
local idem = false
if KEYS[2] then idem = redis.call('HGET', KEYS[2], ARGV[1]) end
return {r[1], r[2], idem, r[3]}
