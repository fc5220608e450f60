-- want: line 2: tools.health: takes one table of named arguments, not a string
return tools.health("api")
