-- One round trip for a request: the game's version and document, and (if asked) an
-- idempotency record. KEYS[1] game hash, KEYS[2] idempotency key (optional).
local r = redis.call('HMGET', KEYS[1], 'v', 'doc')
local idem = false
if KEYS[2] then idem = redis.call('GET', KEYS[2]) end
return {r[1], r[2], idem}
