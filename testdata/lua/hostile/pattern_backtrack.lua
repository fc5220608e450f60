-- expect: budget
return string.find(("a"):rep(100), ".-.-.-.-.-.-b")
