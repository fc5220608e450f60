-- want: line 2: tools.add_note: no tool of that name is reachable from this script; did you mean tools.mcp__notes__add_note?
local note = tools.add_note{ title = "deploy" }
return note
