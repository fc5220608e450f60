-- expect: ok
-- An honest long loop: a hundred thousand caught errors, refused calls and
-- named tables leave nothing behind (the corpus runs with 64 MiB).
for i = 1, 100000 do pcall(error, "x") end
for i = 1, 100000 do pcall(tools.mcp__nobody__here, {}) end
for i = 1, 1000000 do local _ = tostring({}) end
return "done"
