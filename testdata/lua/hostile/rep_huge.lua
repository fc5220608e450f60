-- expect: error resulting string too large
return #string.rep("x", 1e9)
