-- want: line 2: tools.ToolSearch(): args.query: required, missing
local found = tools.ToolSearch()
return found
