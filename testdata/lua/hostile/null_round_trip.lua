-- expect: ok
-- result: {"list":[1,null,3],"none":{},"obj":{}}
-- A value with nulls and empty containers goes out as it came in.
local v = tools.echo{ list = { 1, tools.null, 3 }, none = {}, obj = {} }
assert(#v.list == 3 and v.list[2] == tools.null)
local ok, err = pcall(tools.echo, { 1, 2 })
assert(not ok and err:find("named arguments"), err)
return tools.echo(v)
