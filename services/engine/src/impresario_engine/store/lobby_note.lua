-- Announced before a write that moves a game to another list of games (lobby.py): the game's
-- entry is put in the list the write gives it BEFORE the game is written, so a game is never
-- missing from the list its saved state belongs to. A writer that loses its compare-and-set
-- leaves an extra entry behind; readers check every entry against the game and drop it.
-- KEYS[1] versions hash (game id -> "<highest announced version> <member>"), KEYS[2] the
-- due set (game id -> when to look at the game again), KEYS[3] the list the write puts it in
-- ARGV[1] game id, ARGV[2] the version being written, ARGV[3] member, ARGV[4] due time
local known = redis.call('HGET', KEYS[1], ARGV[1])
local kv = known and tonumber(string.match(known, '^(%d+)')) or 0
local v = tonumber(ARGV[2])
-- an older version than one already announced: its writer has lost (the announcer of the
-- newer one had read a version this one's writer was still going to write over)
if v < kv then return 0 end
redis.call('ZADD', KEYS[3], 0, ARGV[3])
if v > kv then
  redis.call('HSET', KEYS[1], ARGV[1], v .. ' ' .. ARGV[3])
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
else
  redis.call('ZADD', KEYS[2], 'LT', ARGV[4], ARGV[1])  -- racing writers: the earliest look
end
return 1
