-- want: line 2: tools.health: takes one table of named arguments, not a list
return tools.health{ "api" }
