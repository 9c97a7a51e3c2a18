-- Seat a quick-match table: take its players out of their queue, all or none (a player another
-- pod seated a moment ago is no longer there: nothing is taken, the caller looks again).
-- KEYS[1] the queue (sorted set), KEYS[2] the waiting players' entries (hash),
-- KEYS[3] the tables being made (hash: game id -> table), then each player's ticket
-- ARGV[1] the game id, ARGV[2] the table (JSON), ARGV[3] the tickets' time to live (s),
-- then per player: its id, its ticket (JSON)
local n = #KEYS - 3
for i = 1, n do
  if not redis.call('ZSCORE', KEYS[1], ARGV[2 + 2 * i]) then return 0 end
end
for i = 1, n do
  local pid = ARGV[2 + 2 * i]
  redis.call('ZREM', KEYS[1], pid)
  redis.call('HDEL', KEYS[2], pid)
  redis.call('SET', KEYS[3 + i], ARGV[3 + 2 * i], 'EX', tonumber(ARGV[3]))
end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return 1
