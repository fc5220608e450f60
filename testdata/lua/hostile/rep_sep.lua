-- expect: error resulting string too large
return #("ab"):rep(2^31)
