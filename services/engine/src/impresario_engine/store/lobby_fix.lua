-- A repair of the lists of games by someone who has just read the game (a listing, the
-- sweeper): its entry is moved to the list its saved state belongs to, or removed everywhere
-- when the game is gone. Never against a writer: if a version newer than the one read has been
-- announced, that writer is moving the entry itself and nothing is touched.
-- KEYS[1] versions hash, KEYS[2] due set, KEYS[3..] every list
-- ARGV[1] game id, ARGV[2] member ('' = the one the versions hash names), ARGV[3] the version
-- read, ARGV[4] the index in KEYS of the right list (0: the game is gone), ARGV[5] the due
-- time, ARGV[6] now, ARGV[7] '1': forget the game whatever its due time
local id = ARGV[1]
local known = redis.call('HGET', KEYS[1], id)
local kv, kmember = 0, false
if known then
  kv = tonumber(string.match(known, '^(%d+)'))
  kmember = string.match(known, '^%d+ (.*)$')
end
local member = ARGV[2]
if member == '' then member = kmember end
local right = tonumber(ARGV[4])
if right == 0 then
  if ARGV[7] ~= '1' then
    -- gone before its time: a creation still on its way (the entry is announced first)
    local due = redis.call('ZSCORE', KEYS[2], id)
    if due and tonumber(due) > tonumber(ARGV[6]) then return 0 end
  end
  for i = 3, #KEYS do
    if member then redis.call('ZREM', KEYS[i], member) end
    if kmember and kmember ~= member then redis.call('ZREM', KEYS[i], kmember) end
  end
  redis.call('HDEL', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  return 1
end
if kv > tonumber(ARGV[3]) then return 0 end
for i = 3, #KEYS do
  if i ~= right then redis.call('ZREM', KEYS[i], member) end
end
redis.call('ZADD', KEYS[right], 0, member)
redis.call('ZADD', KEYS[2], ARGV[5], id)
if kv < tonumber(ARGV[3]) then redis.call('HSET', KEYS[1], id, ARGV[3] .. ' ' .. member) end
return 1
