-- expect: ok
local refused = 0
for i = 1, 500 do if not pcall(tools.echo, {}) then refused = refused + 1 end end
assert(refused == 450, refused)
return refused
