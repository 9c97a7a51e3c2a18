-- Link a finished game to its rematch, once: the first link wins. Nothing when the game is
-- gone (a hash made here would have no expiry). KEYS[1] game hash; ARGV[1] the rematch's id.
-- Returns the rematch's id (this one, or the one linked first), or nil.
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSETNX', KEYS[1], 'rematch', ARGV[1])
return redis.call('HGET', KEYS[1], 'rematch')
