-- expect: error overflow
local t
t = setmetatable({}, { __index = function(_, k)
  local ok, v = pcall(function() return t[k] end)
  if not ok then error(v, 0) end
  return v
end })
return t.x
