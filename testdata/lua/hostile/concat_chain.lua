-- expect: error resulting string too large
local s = ("x"):rep(2^21)
return #(s .. s .. s .. s)
