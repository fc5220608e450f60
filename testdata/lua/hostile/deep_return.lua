-- expect: ok
local d = {}
for i = 1, 1e5 do d = { d } end
return d
