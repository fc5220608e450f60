-- expect: ok
-- Nothing of the host hides behind rawget or next.
for _, name in ipairs({ "os", "io", "debug", "require", "package", "_LOADED", "_REGISTRY" }) do
  assert(rawget(_G, name) == nil, name)
end
local n = 0
for k, v in next, _G do n = n + 1 end
return n
