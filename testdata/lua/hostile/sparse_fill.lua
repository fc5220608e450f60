-- expect: memory
-- Each key is as far past the end as one step may go; the array part's
-- holes are counted, so the run stops near its cap, not gigabytes on.
local t = {}
for i = 1, 2 ^ 20 do
	t[i * 2 ^ 20] = i
end
