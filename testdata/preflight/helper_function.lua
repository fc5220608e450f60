-- want: line 3: tools.health{...}: args.service: required, missing; args.servce: not a parameter (it takes service)
local function check(name)
  return tools.health{ servce = name }
end
return check("api")
