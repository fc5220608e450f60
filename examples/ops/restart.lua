-- Restart every service that reports unhealthy, all at once, then read
-- their health again. Run it with: go run ./examples/ops
local unhealthy = {}
for _, name in ipairs(tools.list_services().services) do
  local h = tools.health{ service = name }
  print(name, h.status)
  if not h.healthy then
    unhealthy[#unhealthy + 1] = name
  end
end

local branches = {}
for i, name in ipairs(unhealthy) do
  branches[i] = function() return tools.restart{ service = name, reason = "unhealthy" } end
end
if #branches > 0 then
  tools.parallel(unpack(branches))
end

local report = {}
for _, name in ipairs(unhealthy) do
  local h = tools.health{ service = name }
  print(name, "after restart:", h.status)
  report[name] = h.status
end
return { restarted = #unhealthy, now = report }
