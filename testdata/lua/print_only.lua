-- log: visible	{"a":[1,2]}
print("visible", { a = { 1, 2 } })
