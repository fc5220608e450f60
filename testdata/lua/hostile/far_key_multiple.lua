-- expect: error too far past
-- A far integer key in a multiple assignment, after a near one.
local b = {}
b[1], b[50331647] = 1, 2
