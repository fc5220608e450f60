-- expect: error position out of bounds
-- table.insert at a far position would fill the array part up to it.
local t = {}
table.insert(t, 2^26 - 1, true)
