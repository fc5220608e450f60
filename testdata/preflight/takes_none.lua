-- want: line 2: tools.list_services{...}: args.all: not a parameter (the tool takes none)
local services = tools.list_services{ all = true }
return services
