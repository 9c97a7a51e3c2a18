-- A finished game made compact: its document compressed, its event stream folded into one
-- compressed field of the game hash, and its idempotency records kept only for the replay
-- window (a finished game takes no move, so a late retry can no longer apply anything twice).
-- Only if the game is still at the version the archive was made from, with every event in it.
-- KEYS[1] game hash, KEYS[2] event stream, KEYS[3] idempotency hash
-- ARGV[1] version, ARGV[2] compressed document, ARGV[3] compressed events, ARGV[4] their
-- count, ARGV[5] the replay window ms
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
if redis.call('XLEN', KEYS[2]) ~= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'events', ARGV[3])
redis.call('DEL', KEYS[2])
local left = redis.call('PTTL', KEYS[3])
local window = tonumber(ARGV[5])
if left == -1 or left > window then redis.call('PEXPIRE', KEYS[3], window) end
return 1
