-- expect: error too far past
-- A far integer key in a table constructor would fill the array part up
-- to it in one step (a worker stores it as a hash entry).
local t = { [33554431] = 1 }
