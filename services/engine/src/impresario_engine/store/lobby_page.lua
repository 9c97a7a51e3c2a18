-- One page of candidates from each list of games, newest first: the entries below a bound.
-- KEYS the lists; ARGV[1] the bound ('+', or '(' .. member: after that entry), ARGV[2] count
local out = {}
for i = 1, #KEYS do
  out[i] = redis.call('ZREVRANGEBYLEX', KEYS[i], ARGV[1], '-', 'LIMIT', 0, tonumber(ARGV[2]))
end
return out
