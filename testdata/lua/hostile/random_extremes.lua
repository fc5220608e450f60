-- expect: ok
-- math.random over intervals that overflow an integer.
local x = math.random(-2^62, 2^62)
assert(x >= -2^62 and x <= 2^62)
assert(not pcall(math.random, 0/0))
assert(not pcall(math.random, -1/0, 1/0))
assert(math.random(2^53) >= 1)
return math.random(-2^63, -2^63)
