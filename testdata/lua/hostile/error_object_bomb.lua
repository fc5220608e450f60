-- expect: error resulting string too large
error(("x"):rep(2^25))
