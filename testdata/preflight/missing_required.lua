-- want: line 3: tools.health{...}: args.service: required, missing
local s = tools.list_services()
local h = tools.health{ name = "api" }
return h
