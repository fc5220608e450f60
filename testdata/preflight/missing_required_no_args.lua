-- want: line 2: tools.health(): args.service: required, missing
return tools.health()
