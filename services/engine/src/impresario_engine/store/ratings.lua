-- Apply one game's ratings, once: a compare-and-set on each rated player's version.
-- KEYS[1] the game's mark (rated once), KEYS[2] the ruleset's leaderboard,
-- then per player: its rating hash, its recent results (a list)
-- ARGV[1] the mark's time to live (seconds), ARGV[2] the games a leaderboard entry needs,
-- ARGV[3] how many recent results a player keeps, ARGV[4] the mark's value,
-- then per player: its id, the version read, the new mu, the new sigma, the displayed
-- rating, the recent result (JSON)
-- Returns 1 applied, 0 applied before (by anyone), -1 a player's rating changed since read.
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local n = (#KEYS - 2) / 2
for i = 1, n do
  local at = 4 + (i - 1) * 6
  local v = redis.call('HGET', KEYS[2 + i], 'v') or '0'
  if v ~= ARGV[at + 2] then return -1 end
end
for i = 1, n do
  local at = 4 + (i - 1) * 6
  local key = KEYS[2 + i]
  local games = redis.call('HINCRBY', key, 'games', 1)
  redis.call('HSET', key, 'mu', ARGV[at + 3], 'sigma', ARGV[at + 4], 'v', tostring(tonumber(ARGV[at + 2]) + 1))
  if games >= tonumber(ARGV[2]) then
    redis.call('ZADD', KEYS[2], ARGV[at + 5], ARGV[at + 1])
  end
  local recent = KEYS[2 + n + i]
  redis.call('LPUSH', recent, ARGV[at + 6])
  redis.call('LTRIM', recent, 0, tonumber(ARGV[3]) - 1)
end
redis.call('SET', KEYS[1], ARGV[4], 'EX', tonumber(ARGV[1]))
return 1
