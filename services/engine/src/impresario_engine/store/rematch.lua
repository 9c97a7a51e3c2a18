-- Link a finished game to its rematch, once: the first link wins. A link may be replaced
-- only by naming it (its rematch has expired). Nothing when the game is gone (a hash made
-- here would have no expiry). KEYS[1] game hash; ARGV[1] the rematch's id, ARGV[2] the link
-- it replaces ('' = none). Returns the link now (this one, or another's), or nil.
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local current = redis.call('HGET', KEYS[1], 'rematch')
if (not current and ARGV[2] == '') or current == ARGV[2] then
  redis.call('HSET', KEYS[1], 'rematch', ARGV[1])
  return ARGV[1]
end
return current
