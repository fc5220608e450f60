-- expect: error attempt to yield across a C-call boundary
local co = coroutine.wrap(function()
  table.sort({ 2, 1 }, function(a, b) coroutine.yield() return a < b end)
end)
co()
