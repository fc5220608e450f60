-- expect: error {"k
-- An uncaught error object of many fields: its message is rendered up to
-- the result cap, not in full.
local t = {}
for i = 1, 30000 do t["k" .. i] = ("z"):rep(200) end
error(t)
