-- A game's events after a sequence number: from its stream while it is in play, or from the
-- compressed blob a finished game's stream was archived into (then the caller slices it).
-- KEYS[1] game hash, KEYS[2] event stream; ARGV[1] XRANGE start, ARGV[2] count ('' = all)
if redis.call('EXISTS', KEYS[2]) == 1 then
  if ARGV[2] ~= '' then
    return {0, redis.call('XRANGE', KEYS[2], ARGV[1], '+', 'COUNT', ARGV[2])}
  end
  return {0, redis.call('XRANGE', KEYS[2], ARGV[1], '+')}
end
return {1, redis.call('HGET', KEYS[1], 'events')}
