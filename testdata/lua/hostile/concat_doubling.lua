-- expect: error resulting string too large
local s = "x"
for i = 1, 64 do s = s .. s end
