-- expect: budget
return string.match(("a"):rep(1e6), "(.-)*b")
