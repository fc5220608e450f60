-- expect: budget
tools.echo{}
while true do end
