-- expect: error refers back to itself
local a = {}
a.b = { a = a }
tools.echo{ a = a }
