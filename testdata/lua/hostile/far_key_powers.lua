-- expect: error too far past
-- Powers of two as keys: each step may fill at most a million slots past
-- the end (a worker stores those past its array index as hash entries).
local a = {}
for i = 1, 50 do
	a[2 ^ i] = true
end
