-- expect: error resulting string too large
local s = ("ab"):rep(2^20)
return #s:gsub("", ("z"):rep(64))
