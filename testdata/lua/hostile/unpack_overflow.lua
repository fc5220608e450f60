-- expect: error too many results
-- A range whose length overflows an integer.
local ok, err = pcall(unpack, {}, 0/0)
assert(not ok and err:find("no integer representation"), err)
return unpack({}, -2^62, 2^62)
