-- expect: error string slice too long
return string.byte(("x"):rep(1e6), 1, -1)
