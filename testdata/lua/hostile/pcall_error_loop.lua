-- expect: ok
-- An honest long loop: tens of thousands of caught errors, refused calls and
-- named tables leave nothing behind (the corpus runs with 64 MiB).
for i = 1, 30000 do pcall(error, "x") end
for i = 1, 30000 do pcall(tools.mcp__nobody__here, {}) end
for i = 1, 300000 do local _ = tostring({}) end
return "done"
