-- expect: error nested more than
local d = {}
for i = 1, 1e5 do d = { d } end
tools.echo{ d = d }
