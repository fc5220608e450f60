-- expect: memory
-- Live gmatch iterators keep their subjects: a thousand of them over
-- distinct 1 MB strings held a gigabyte the memory guard did not see.
local keep = {}
for i = 1, 1000 do
	keep[i] = string.gmatch(("x"):rep(1000000) .. i, ".")
end
